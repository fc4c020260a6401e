import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';
import { runCli } from '../../support/cli.js';
import { useTempDir } from '../../support/config/tempDir.js';

const dir = useTempDir();

const withKeyFile = (file: string) =>
  `platform: { baseUrl: "https://p.example", apiKeyFile: "${file}", variant: A }\n`;

describe('files the start reads are refused at once when they are no regular file', () => {
  // In a child process with a time-out: before the bound, /dev/zero was read to 2 GB and a
  // FIFO without a writer blocked the start for ever.
  it('refuses /dev/zero and a FIFO at once, without reading them', async () => {
    execFileSync('mkfifo', [join(dir.path(), 'token.fifo')]);
    await dir.write('config.yaml', `${withKeyFile('/dev/zero')}http: { tokenFile: token.fifo }\n`);
    const started = Date.now();
    const result = await runCli(['config', 'check', '-c', 'config.yaml'], {
      cwd: dir.path(),
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '  platform.apiKey: cannot read platform.apiKeyFile /dev/zero: that is a character device, not a file; point platform.apiKeyFile at a file that holds only the secret\n',
    );
    expect(result.stderr).toContain(
      '  http.token: cannot read http.tokenFile token.fifo: that is a FIFO (named pipe), not a file; point http.tokenFile at a file that holds only the secret\n',
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('refuses a FIFO as the config file without blocking', async () => {
    execFileSync('mkfifo', [join(dir.path(), 'config.fifo')]);
    const result = await runCli(['config', 'check', '-c', 'config.fifo'], {
      cwd: dir.path(),
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '  config.fifo: that is a FIFO (named pipe), not a file; name the YAML config file\n',
    );
  });
});

describe('run warns about files every user may read, as config check does, once', () => {
  const rig = useDaemonRig({
    simulator: { seed: 31 },
    config: { http: { enabled: true, host: '127.0.0.1', port: 0, tokenFile: 'endpoint.token' } },
  });
  beforeAll(() => {
    const { f } = rig();
    writeFileSync(join(f.folder, 'endpoint.token'), 'run-warning-token-6d1f0a9c7b\n');
    chmodSync(join(f.folder, 'endpoint.token'), 0o644);
    // The config holds platform.apiKey itself, so every user reading it is worth a warning.
    chmodSync(f.configPath, 0o644);
  });

  it('prints each warning of config check once on stderr, not again while it runs', async () => {
    const { f, start } = rig();
    const checked = await f.cli('config', 'check');
    expect(checked.code).toBe(0);
    const warnings = checked.stderr.split('\n').filter((line) => line !== '');
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: the config file .* may be read by every user .*mode 644/),
      expect.stringMatching(/^warning: http\.tokenFile .* may be read by every user .*mode 644/),
    ]);

    const daemon = start();
    await daemon.waitForLog('homecare-sync started');
    await daemon.waitForLog('pull finished');
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'run to stop after SIGTERM')).toBe(0);
    expect(daemon.stderr()).toBe(checked.stderr);
  });
});
