/**
 * `check --online` as a user runs it: the CLI against the simulator over loopback, each variant,
 * and the faults of a first installation (a wrong variant, a key of another tenant or without
 * rights, a skewed clock, an ERP folder or endpoint that does not work). Nothing may be written
 * to the platform: the simulator's request log shows GETs and HEADs only.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { RESOURCE_NAMES, VARIANTS, type Variant } from '../../../src/contract/index.js';
import { systemClock } from '../../../src/shared/clock.js';
import type { ApiKeyEntry } from '../../../src/simulator/index.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { API_KEY, cliFolder, type CliFolder } from '../../support/cli/cliFolder.js';
import { json as answer, startScriptedServer } from '../../support/platform/scriptedServer.js';
import { lockFolder } from '../../support/lockFolder.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const OTHER_TENANT_KEY = 'other-tenant-key-5b1d';
const NO_ARTICLES_KEY = 'no-articles-key-77e0';
const KEYS: readonly ApiKeyEntry[] = [
  { key: API_KEY, tenant: 'demo', client: 'erp-1', attachments: true },
  { key: OTHER_TENANT_KEY, tenant: 'other', client: 'erp-other', attachments: false },
  {
    key: NO_ARTICLES_KEY,
    tenant: 'demo',
    client: 'erp-1',
    attachments: false,
    resources: RESOURCE_NAMES.filter((name) => name !== 'article'),
  },
];

interface CheckJson {
  exitCode: number;
  variant: string;
  summary: Record<string, number>;
  kept: boolean;
  checks: { id: string; status: string; ms: number; message: string; hint: string | null }[];
}

function platformOf(sim: TestSimulator, variant: Variant, apiKey = API_KEY) {
  return { baseUrl: sim.url, apiKey, variant, timeoutMs: 5000 };
}

/** A folder whose ERP folders exist, as an installation prepares them. */
function installation(sim: TestSimulator, variant: Variant, extra: Record<string, unknown> = {}) {
  const f = cliFolder(sim.url, { platform: platformOf(sim, variant), ...extra });
  mkdirSync(f.outbox, { recursive: true });
  mkdirSync(join(f.folder, 'erp', 'inbox'), { recursive: true });
  return f;
}

/** Another config beside the folder's own (same database and folders), with `platform` changed. */
function configBeside(f: CliFolder, name: string, platform: Record<string, unknown>): string {
  const path = join(f.folder, name);
  const config = {
    platform,
    storage: { path: f.database },
    erp: { adapter: 'file', file: { outbox: f.outbox, inbox: join(f.folder, 'erp', 'inbox') } },
    http: { enabled: false },
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return path;
}

const check = (f: CliFolder, ...args: string[]) => f.cli('check', '--online', ...args);
const json = (result: CliResult) => JSON.parse(result.stdout) as CheckJson;
const verdict = (result: CliResult, id: string) => json(result).checks.find((c) => c.id === id);

async function onlyReads(sim: TestSimulator): Promise<void> {
  const methods = new Set((await sim.control.requests()).map((r) => r.method));
  expect(methods.size).toBeGreaterThan(0);
  expect([...methods].filter((m) => m !== 'GET' && m !== 'HEAD')).toEqual([]);
}

describe.each(VARIANTS)('variant %s', (variant) => {
  let sim: TestSimulator;
  let f: CliFolder;
  beforeAll(async () => {
    sim = await startTestSimulator({ variant, keys: KEYS, clock: systemClock });
    f = installation(sim, variant);
  });
  afterAll(async () => {
    await sim.close();
    f.cleanup();
  });

  it('is detected, every point passes or does not apply, and only GETs reach the platform', async () => {
    await sim.control.clearRequests();
    const result = await check(f, '--json');
    expect(result.stderr).not.toContain('check --online:');
    expect(result.code).toBe(0);
    const report = json(result);
    expect(report.summary.fail).toBe(0);
    expect(verdict(result, 'platform.variant')).toMatchObject({
      status: 'pass',
      message: expect.stringContaining(
        `the platform behaves as variant ${variant}, as platform.variant says`,
      ) as string,
    });
    expect(report.checks.filter((c) => c.id.startsWith('read.')).length).toBeGreaterThan(10);
    for (const c of report.checks)
      expect(['pass', 'skip'], `${c.id}: ${c.message}`).toContain(c.status);
    await onlyReads(sim);
    expect(readdirSync(f.outbox)).toEqual([]);
  });

  it('a wrong platform.variant fails, naming the variant the platform behaves as', async () => {
    const wrong = VARIANTS.find((v) => v !== variant) ?? 'A';
    const config = configBeside(f, 'wrong.yaml', platformOf(sim, wrong));
    await sim.control.clearRequests();
    const result = await runCli(['check', '--online', '--json', '-c', config], { cwd: f.folder });
    expect(result.code).toBe(1);
    const seen = verdict(result, 'platform.variant');
    expect(seen?.status).toBe('fail');
    expect(seen?.message).toContain(
      `the platform behaves as variant ${variant}, platform.variant says ${wrong}`,
    );
    expect(seen?.hint).toBe(`set platform.variant: ${variant}`);
    expect(result.stderr).toContain('check(s) failed');
    await onlyReads(sim);
  });
});

describe('first contact in variant B', () => {
  let sim: TestSimulator;
  let f: CliFolder;
  beforeAll(async () => {
    sim = await startTestSimulator({ variant: 'B', keys: KEYS, clock: systemClock });
    f = installation(sim, 'B');
  });
  afterAll(async () => {
    await sim.close();
    f.cleanup();
  });

  it('prints a table for people, never the key, and keeps the result for status', async () => {
    const result = await check(f);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^check --online, platform variant B as configured/);
    expect(result.stdout).toMatch(
      /\n {2}pass {2}platform\.key +\d+ ms {2}the platform accepts the key/,
    );
    expect(result.stdout).toMatch(
      /\d+ pass, 0 warn, 0 fail, \d+ skip; exit 0; kept in the database/,
    );
    expect(`${result.stdout}${result.stderr}`).not.toContain(API_KEY);

    const status = await f.cli('status');
    expect(status.stdout).toMatch(
      /online check \(check --online\) at \S+: \d+ pass, 0 warn, 0 fail/,
    );
    const statusJson = JSON.parse((await f.cli('status', '--json')).stdout) as {
      onlineCheck: { checkedAt: string; checks: { id: string; status: string }[] };
    };
    expect(statusJson.onlineCheck.checks.find((c) => c.id === 'platform.variant')?.status).toBe(
      'pass',
    );
  });

  it('a key without the right to one resource: that read fails, the others pass', async () => {
    const config = configBeside(f, 'narrow.yaml', platformOf(sim, 'B', NO_ARTICLES_KEY));
    const result = await runCli(['check', '--online', '--json', '--only', 'read', '-c', config], {
      cwd: f.folder,
    });
    expect(result.code).toBe(1);
    const article = verdict(result, 'read.article');
    expect(article).toMatchObject({ status: 'fail' });
    expect(article?.message).toContain('the key may not list article: HTTP 403');
    expect(article?.hint).toContain('sync.resources.article.enabled: false');
    expect(verdict(result, 'read.singleOrder')?.status).toBe('pass');
    expect(json(result).checks.every((c) => c.id.startsWith('read.'))).toBe(true);
  });

  it('a skewed platform clock: warn above 5 s (exit 2 only with --strict), fail beyond the overlap', async () => {
    await sim.control.moveClock({ offsetMs: 30_000 });
    try {
      const ahead = await check(f, '--json', '--only', 'platform.clock');
      expect(ahead.code).toBe(0);
      expect(verdict(ahead, 'platform.clock')).toMatchObject({ status: 'warn' });
      expect(verdict(ahead, 'platform.clock')?.message).toMatch(
        /the platform's clock is (29|30|31)(\.\d)? s ahead of this machine's/,
      );
      const strict = await check(f, '--strict', '--only', 'platform.clock');
      expect(strict.code).toBe(2);
      expect(strict.stderr).toContain('check --online --strict: 1 warning(s)');

      await sim.control.moveClock({ offsetMs: -230_000 });
      const behind = await check(f, '--json', '--only', 'platform.clock');
      expect(behind.code).toBe(1);
      expect(verdict(behind, 'platform.clock')?.message).toContain(
        "behind this machine's: more than sync.overlapSeconds (120 s)",
      );
    } finally {
      await sim.control.moveClock({ offsetMs: 200_000 });
    }
  });

  it('an unreachable REST ERP fails erp.rest, naming it', async () => {
    const erp = {
      adapter: 'rest',
      rest: {
        baseUrl: 'http://127.0.0.1:9/api',
        auth: { type: 'bearer', token: 'erp-token-3f9a1c7d' },
      },
    };
    // The REST adapter needs the endpoint the ERP answers to; the check does not start it.
    const http = { host: '127.0.0.1', port: 9465, token: 'endpoint-token-0b6f1a3e7c1d4c3e' };
    const g = cliFolder(sim.url, { platform: platformOf(sim, 'B'), erp, http });
    try {
      const result = await g.cli('check', '--online', '--json', '--only', 'erp');
      expect(result.code).toBe(1);
      const rest = verdict(result, 'erp.rest');
      expect(rest?.status).toBe('fail');
      expect(rest?.message).toContain('the ERP at http://127.0.0.1:9 cannot be reached');
      expect(rest?.message).toContain('ECONNREFUSED');
      expect(result.stdout).not.toContain('erp-token-3f9a1c7d');
    } finally {
      g.cleanup();
    }
  });

  it('a REST ERP that refuses the credentials fails; one that answers passes, asked by HEAD only', async () => {
    const refusing = await startScriptedServer(answer(401, {}), answer(404, {}));
    const http = { host: '127.0.0.1', port: 9465, token: 'endpoint-token-0b6f1a3e7c1d4c3e' };
    const erp = {
      adapter: 'rest',
      rest: {
        baseUrl: `${refusing.url}/api`,
        auth: { type: 'bearer', token: 'erp-token-3f9a1c7d' },
      },
    };
    const g = cliFolder(sim.url, { platform: platformOf(sim, 'B'), erp, http });
    try {
      const refused = await g.cli('check', '--online', '--json', '--only', 'erp.rest');
      expect(refused.code).toBe(1);
      expect(verdict(refused, 'erp.rest')?.message).toContain(
        'refused the credentials of erp.rest.auth: HTTP 401 to HEAD',
      );
      const answered = await g.cli('check', '--online', '--json', '--only', 'erp.rest');
      expect(answered.code).toBe(0);
      expect(verdict(answered, 'erp.rest')?.status).toBe('pass');
      expect(refusing.requests.map((r) => r.method)).toEqual(['HEAD', 'HEAD']);
      expect(refusing.requests[0]?.headers.authorization).toBe('Bearer erp-token-3f9a1c7d');
    } finally {
      g.cleanup();
      await refusing.close();
    }
  });

  it('an outbox the daemon cannot write fails erp.outbox, naming it', async () => {
    const unlock = lockFolder(f.outbox);
    try {
      const result = await check(f, '--json', '--only', 'erp');
      expect(result.code).toBe(1);
      const outbox = verdict(result, 'erp.outbox');
      expect(outbox?.status).toBe('fail');
      expect(outbox?.message).toContain(`${f.outbox} is not writable`);
      expect(outbox?.hint).toContain('write access');
      expect(verdict(result, 'erp.inbox')?.status).toBe('pass');
    } finally {
      unlock();
    }
    expect(readdirSync(f.outbox)).toEqual([]);
  });

  it('names an unknown check with the one it may have meant (exit 2), and checks nothing', async () => {
    await sim.control.clearRequests();
    const result = await check(f, '--only', 'read.singelOrder', '--skip', 'platfrom');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--only: no check "read.singelOrder" (did you mean read.singleOrder?)',
    );
    expect(result.stderr).toContain('--skip: no check "platfrom" (did you mean platform?)');
    expect(await sim.control.requests()).toEqual([]);
  });

  it('--timeout cuts a check that takes longer, and the command still ends at once', async () => {
    const fault = await sim.control.setFault({ path: '/region', latencyMs: 20_000 });
    try {
      const started = Date.now();
      const result = await check(f, '--json', '--only', 'read.region', '--timeout', '0.3');
      expect(result.code).toBe(1);
      expect(verdict(result, 'read.region')).toMatchObject({
        status: 'fail',
        message: 'did not finish within 0.3 s',
      });
      // The request left waiting on the platform does not hold the exit.
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await sim.control.clearFaults();
    }
    expect(fault.id).toBeDefined();
    const refused = await check(f, '--timeout', '0');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('a number of seconds above 0');
  });

  it('without --online it says what it needs and where the offline check is', async () => {
    const result = await f.cli('check');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('check needs --online');
    expect(result.stderr).toContain('homecare-sync config check');
  });
});

describe('a key of another tenant', () => {
  let sim: TestSimulator;
  let f: CliFolder;
  beforeAll(async () => {
    sim = await startTestSimulator({ variant: 'B', keys: KEYS, clock: systemClock, seed: 3 });
    f = installation(sim, 'B');
    const synced = await f.cli('sync', 'patient', 'article');
    if (synced.code !== 0) throw new Error(`sync failed:\n${synced.stderr}`);
  }, 60_000);
  afterAll(async () => {
    await sim.close();
    f.cleanup();
  });

  it('is told by the records this database holds: fail for another tenant, pass for the same', async () => {
    const config = configBeside(f, 'other.yaml', platformOf(sim, 'B', OTHER_TENANT_KEY));
    const other = await runCli(
      ['check', '--online', '--json', '--only', 'platform', '-c', config],
      {
        cwd: f.folder,
      },
    );
    expect(other.code).toBe(1);
    const tenant = verdict(other, 'platform.tenant');
    expect(tenant?.status).toBe('fail');
    expect(tenant?.message).toMatch(/the key does not see 3 of 3 records this database holds/);
    expect(tenant?.message).toContain('another tenant');
    expect(verdict(other, 'platform.key')?.status).toBe('pass');

    const same = await check(f, '--json', '--only', 'platform.tenant');
    expect(verdict(same, 'platform.tenant')).toMatchObject({
      status: 'pass',
      message: expect.stringContaining('the same tenant') as string,
    });
    await onlyReads(sim);
  });
});
