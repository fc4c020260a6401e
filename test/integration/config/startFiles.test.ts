import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFolder, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';
import { killIfRunning, startDaemonProcess, withinBound } from '../../support/cli/daemonProcess.js';
import { runCli } from '../../support/cli.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
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
  let sim: TestSimulator;
  let f: CliFolder;
  beforeAll(async () => {
    sim = await startTestSimulator({ keys: SIM_KEYS, seed: 31 });
    f = cliFolder(sim.url, {
      http: { enabled: true, host: '127.0.0.1', port: 0, tokenFile: 'endpoint.token' },
    });
    writeFileSync(join(f.folder, 'endpoint.token'), 'run-warning-token-6d1f0a9c7b\n');
    chmodSync(join(f.folder, 'endpoint.token'), 0o644);
    // The config holds platform.apiKey itself, so every user reading it is worth a warning.
    chmodSync(f.configPath, 0o644);
  }, 60_000);
  afterAll(async () => {
    await sim.close();
    f.cleanup();
  });

  it('prints each warning of config check once on stderr, not again while it runs', async () => {
    const checked = await f.cli('config', 'check');
    expect(checked.code).toBe(0);
    const warnings = checked.stderr.split('\n').filter((line) => line !== '');
    expect(warnings).toEqual([
      expect.stringMatching(/^warning: the config file .* may be read by every user .*mode 644/),
      expect.stringMatching(/^warning: http\.tokenFile .* may be read by every user .*mode 644/),
    ]);

    const daemon = startDaemonProcess(f.configPath, f.folder);
    try {
      await daemon.waitForLog('homecare-sync started');
      await daemon.waitForLog('pull finished');
      daemon.signal('SIGTERM');
      expect(await withinBound(daemon.exited, 'run to stop after SIGTERM')).toBe(0);
      expect(daemon.stderr()).toBe(checked.stderr);
    } finally {
      await killIfRunning(daemon);
    }
  });
});
