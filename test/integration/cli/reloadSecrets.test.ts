import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { SIM_KEYS } from '../../support/cli/cliFolder.js';
import { eventually, withinBound, type LogLine } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

/** A key the platform issued that is a word (issue 38): warned about, never refused. */
const WORD_KEY = 'homecare';
const rig = useDaemonRig({
  simulator: {
    seed: 9,
    keys: [...SIM_KEYS, { key: WORD_KEY, tenant: 'demo', client: 'erp-3', attachments: false }],
  },
});

type Config = Record<string, Record<string, unknown>>;

function editConfig(change: (config: Config) => void): void {
  const { configPath } = rig().f;
  const config = parse(readFileSync(configPath, 'utf8')) as Config;
  change(config);
  writeFileSync(configPath, stringify(config), { mode: 0o600 });
}

const lines = (stdout: string): LogLine[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

describe('run with a platform key that is a word', () => {
  it('logs every line whole, and a refused reload’s reasons as they are', async () => {
    editConfig((config) => {
      config['platform'] = { ...config['platform'], apiKey: WORD_KEY };
    });
    const check = await rig().f.cli('config', 'check');
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain(
      'warning: platform.apiKey is a word or a number of 8 characters',
    );
    const running = rig().start();
    await running.waitForLog('homecare-sync started');

    editConfig((config) => {
      config['platform'] = { ...config['platform'], apiKey: '${ADV_UNSET_KEY}' };
      config['http'] = { enabled: true, port: 0, token: 'a3f9c0e7 52b14d68a1' };
    });
    running.signal('SIGHUP');
    const refused = await eventually('the refused reload', () =>
      lines(running.stdout()).find((line) => line.msg?.startsWith('config reload refused')),
    );
    const problems = refused['problems'] as string[];
    expect(problems).toContainEqual(
      expect.stringMatching(/^platform\.apiKey: environment variable ADV_UNSET_KEY is not set/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^http\.token: the token holds a space \(character 9\)/),
    );
    for (const problem of problems) expect(refused.msg).toContain(problem);

    running.signal('SIGTERM');
    expect(await withinBound(running.exited, 'the daemon to exit after SIGTERM')).toBe(0);
    const log = running.stdout();
    expect(log).not.toContain('[redacted]-sync');
    expect(lines(log).map((line) => line.msg)).toEqual(
      expect.arrayContaining(['homecare-sync started', 'homecare-sync stopped']),
    );
    expect(log).not.toContain(`"${WORD_KEY}"`);
  }, 120_000);
});
