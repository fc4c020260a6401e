import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  eventually,
  withinBound,
  type DaemonProcess,
  type LogLine,
} from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const rig = useDaemonRig({ simulator: { seed: 9 } });

type Config = Record<string, Record<string, unknown>>;

/** The config file changed by `change`, written back as the operator would. */
function editConfig(original: string, change: (config: Config) => void): void {
  const config = parse(original) as Config;
  change(config);
  writeFileSync(rig().f.configPath, stringify(config), { mode: 0o600 });
}

function lines(running: DaemonProcess): LogLine[] {
  return running
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

describe('run: SIGHUP', () => {
  it('reloads the config: a refused reload keeps the running config and says why, an accepted one takes effect, and the process goes on', async () => {
    const { f, start } = rig();
    const original = readFileSync(f.configPath, 'utf8');
    const running = start();
    await running.waitForLog('homecare-sync started');

    editConfig(original, (config) => {
      config['sync'] = { resources: { patient: { schedule: '*/61 * * * *' } } };
      config['bogus'] = { on: true };
    });
    running.signal('SIGHUP');
    const refused = await eventually('the refused reload', () =>
      lines(running).find((line) => line.msg?.startsWith('config reload refused')),
    );
    expect(refused.level).toBe('error');
    expect(refused.msg).toContain('sync.resources.patient.schedule: ');
    expect(refused.msg).toContain('bogus: ');

    // Debug lines appear only with the new config's log level.
    expect(lines(running).filter((line) => line.level === 'debug')).toEqual([]);
    editConfig(original, (config) => {
      config['log'] = { level: 'debug' };
    });
    running.signal('SIGHUP');
    const reloaded = await running.waitForLog('config reloaded');
    expect(reloaded.level).toBe('info');
    await eventually('a debug line after the reload', () =>
      lines(running).find((line) => line.level === 'debug'),
    );

    running.signal('SIGTERM');
    expect(await withinBound(running.exited, 'the daemon to exit after SIGTERM')).toBe(0);
    const all = lines(running);
    expect(all.filter((line) => line.msg?.startsWith('config reload refused'))).toHaveLength(1);
    expect(all.filter((line) => line.msg === 'config reloaded')).toHaveLength(1);
    expect(all.filter((line) => line.msg === 'homecare-sync started')).toHaveLength(1);
    expect(all.filter((line) => line.msg === 'homecare-sync stopped')).toHaveLength(1);
    expect(running.stderr()).not.toContain('failed');
  }, 120_000);
});
