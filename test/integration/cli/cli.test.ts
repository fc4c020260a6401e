import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../../support/cli.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'homecare-sync-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('config check', () => {
  it('prints the effective config with the API key masked and exits 0', async () => {
    const result = await runCli(['config', 'check', '-c', 'config/example.yaml'], {
      env: { HOMECARE_API_KEY: 'live-key-5c1b9e' },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('live-key-5c1b9e');
    const printed = parse(result.stdout) as {
      platform: { apiKey: string; variant: string };
      retry: { maxAttempts: number };
    };
    expect(printed.platform).toMatchObject({ apiKey: '***', variant: 'B' });
    expect(printed.retry.maxAttempts).toBe(12);
  });

  it('exits 1 naming HOMECARE_API_KEY when it is not set', async () => {
    const result = await runCli(['config', 'check', '--config', 'config/example.yaml']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'config config/example.yaml has 1 problem(s):\n' +
        '  platform.apiKey: environment variable HOMECARE_API_KEY is not set; set it, or give a default with ${HOMECARE_API_KEY:-value}\n',
    );
  });

  it('lists every problem on its own line, without a stack trace', async () => {
    await writeFile(
      join(dir, 'broken.yaml'),
      'platform:\n  baseUrl: nope\n  apiKey: k\n  variant: D\nqueue: { concurrency: 0 }\n',
    );
    const result = await runCli(['config', 'check'], {
      cwd: dir,
      env: { HOMECARE_SYNC_CONFIG: 'broken.yaml' },
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      'config broken.yaml has 3 problem(s):',
      '  platform.baseUrl: expected an http:// or https:// URL, got "nope"',
      '  platform.variant: expected A, B or C, got "D"',
      '  queue.concurrency: must be at least 1, got number 0',
    ]);
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('lists a folder it cannot create and a cron step past its field, each by its key', async () => {
    await writeFile(join(dir, 'in-the-way'), 'a file where a folder must go');
    await writeFile(
      join(dir, 'folders.yaml'),
      'platform: { baseUrl: https://p.example, apiKey: key-123, variant: B }\n' +
        'storage: { path: ./in-the-way/sync.db }\n' +
        'sync: { resources: { article: { schedule: "*/61 * * * *" } } }\n',
    );
    const result = await runCli(['config', 'check', '-c', 'folders.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `sync.resources.article.schedule: "*/61 * * * *" is not a valid cron expression (*/61 in the minute field`,
    );
    await writeFile(
      join(dir, 'folders.yaml'),
      'platform: { baseUrl: https://p.example, apiKey: key-123, variant: B }\n' +
        'storage: { path: ./in-the-way/sync.db }\n',
    );
    const folders = await runCli(['config', 'check', '-c', 'folders.yaml'], { cwd: dir });
    expect(folders.code).toBe(1);
    expect(folders.stderr).toContain(
      `  storage.path: the folder of the database, ${dir}/in-the-way, is not a folder\n`,
    );
  });

  it('looks for ./config/homecare-sync.yaml by default and says how to point elsewhere', async () => {
    const result = await runCli(['config', 'check'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'config/homecare-sync.yaml: the file does not exist (the default; pass -c <file> or set HOMECARE_SYNC_CONFIG)',
    );
  });

  it('refuses a placeholder http.token from a file, at config check and at start-up', async () => {
    await writeFile(join(dir, 'endpoint.token'), 'changeme\n');
    await writeFile(
      join(dir, 'weak-token.yaml'),
      'platform: { baseUrl: "https://platform.example/api", apiKey: key-1234, variant: B }\nhttp: { tokenFile: endpoint.token }\n',
      { mode: 0o600 },
    );
    for (const command of [['config', 'check'], ['run']]) {
      const result = await runCli([...command, '-c', 'weak-token.yaml'], { cwd: dir });
      expect(result.code, command.join(' ')).toBe(1);
      expect(result.stderr).toBe(
        'config weak-token.yaml has 1 problem(s):\n' +
          '  http.token: the token read from http.tokenFile is a well-known placeholder, the first value anyone tries; make one with: openssl rand -hex 32\n',
      );
    }
  });

  it('warns about a short platform API key and accepts the config', async () => {
    await writeFile(
      join(dir, 'short-key.yaml'),
      'platform: { baseUrl: "https://platform.example/api", apiKey: k1, variant: B }\n',
      { mode: 0o600 },
    );
    const result = await runCli(['config', 'check', '-c', 'short-key.yaml'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^warning: platform\.apiKey has only 2 characters: .*\n$/);
  });

  it('accepts the demo config as it ships', async () => {
    const result = await runCli(['config', 'check', '-c', 'config/demo.yaml']);
    // Its demo key is written in it: a checkout every user may read is warned about. The
    // simulator's demo-key is a word: warned about, never refused, as a weak key a platform issued.
    expect(result.stderr).toMatch(
      /^(warning: the config file .*\n)?warning: platform\.apiKey is a word or a number of 8 characters: .*\n$/,
    );
    expect(result.code).toBe(0);
    // Paths and schedules are the demo's own business; what matters here is that it loads.
    const printed = parse(result.stdout) as {
      platform: { baseUrl: string; variant: string; apiKey: string };
      storage: { path: string };
      erp: { adapter: string };
    };
    expect(printed.platform).toMatchObject({ variant: 'B', apiKey: '***' });
    expect(printed.platform.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    expect(printed.storage.path).toMatch(/^\.\/data\//);
    expect(printed.erp.adapter).toBe('file');
  });
});

describe('usage and exit codes', () => {
  it.each([
    [['frobnicate']],
    [['status', '--bogus']],
    [['queue', 'show']],
    [['queue', 'retry']],
    [['queue', 'retry', 'job-1', '--all-dead']],
    [['checkpoint', 'reset', 'orders']],
    [['checkpoint', 'reset', 'article', '--to', 'yesterday']],
  ])('exits 2 on a usage error: %j', async (args) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stdout).toBe('');
  });

  it.each([
    [['run']],
    [['sync', 'singleOrder', '--once']],
    [['status', '--json']],
    [['checkpoint', 'list']],
    [['checkpoint', 'reset', 'article', '--to', '2024-05-01T00:00:00Z']],
  ])('%j reads the config first: exits 1 naming the missing default file', async (args) => {
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'config/homecare-sync.yaml: the file does not exist (the default; pass -c <file> or set HOMECARE_SYNC_CONFIG)',
    );
  });

  it('prints help on stdout and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of [
      'run',
      'sync',
      'status',
      'queue',
      'checkpoint',
      'config',
      'simulator',
      'demo',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    const sub = await runCli(['queue', 'retry', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('-c, --config <file>');
    expect(sub.stdout).toContain('--all-dead');
  });
});
