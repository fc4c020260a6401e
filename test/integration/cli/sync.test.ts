import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkRecord,
  contractFor,
  entitySchema,
  RESOURCE_NAMES,
} from '../../../src/contract/index.js';
import { recordBaseName } from '../../../src/erp/outbound/file/index.js';
import { pullTargets } from '../../../src/pull/targets.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { API_KEY, cliFolder, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';

interface QueuedJob {
  id: number;
  kind: string;
  status: string;
  attempts: number;
  nextAttemptAt: string;
  lastStatus?: number;
}

interface StatusJson {
  checkpoints: {
    resource: string;
    filter: string;
    watermark: string | null;
    lastRun?: { ok: boolean };
  }[];
  queue: { pending: number; running: number; dead: number; openDeadLetters: number };
  delivery: { undelivered: number; waiting: { reason: string | null }[] };
}

let sim: TestSimulator;
const folders: CliFolder[] = [];
const folder = (extra: Record<string, unknown> = {}) => {
  const made = cliFolder(sim.url, extra);
  folders.push(made);
  return made;
};

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 5 });
});
afterEach(async () => {
  await sim.control.clearFaults();
});
afterAll(async () => {
  await sim.close();
  for (const made of folders) made.cleanup();
});

describe('sync --once', () => {
  it('hands the orders to the outbox, exits 0, and status shows checkpoints and nothing undelivered', async () => {
    const f = folder();
    const result = await f.cli('sync', '--once');
    expect(result.stderr).toMatch(/^sync: \d+ pulls, [1-9]\d* new record versions; /);
    expect(result.stderr).not.toContain('pull failed');
    expect(result.code).toBe(0);
    const files = f.outboxFiles();
    expect(files.filter((name) => name.startsWith('singleOrder/')).length).toBeGreaterThan(0);
    expect(files.filter((name) => name.startsWith('directOrder/')).length).toBeGreaterThan(0);

    const text = await f.cli('status');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`database ${f.database}\n`);
    expect(text.stdout).toMatch(
      /^ {2}singleOrder\s+created\s+\d{4}-\S+\s+\d{4}-\S+ ok, \d+ fetched/m,
    );
    expect(text.stdout).toContain('queue: 0 pending, 0 running, 0 dead');

    const status = await f.cli('status', '--json');
    expect(status.code).toBe(0);
    const parsed = JSON.parse(status.stdout) as StatusJson;
    expect(parsed.delivery.undelivered).toBe(0);
    expect(parsed.queue).toMatchObject({ pending: 0, running: 0, dead: 0 });
    const singleOrder = parsed.checkpoints.filter((c) => c.resource === 'singleOrder');
    expect(singleOrder.length).toBeGreaterThan(0);
    for (const checkpoint of parsed.checkpoints) {
      expect(checkpoint.watermark, checkpoint.resource).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(checkpoint.lastRun?.ok, checkpoint.resource).toBe(true);
    }
  });

  it('exits 1 while a version the ERP refused remains, on the next sync too, and says how to see it', async () => {
    const f = folder();
    const [text] = sim.state.store.list('demo', 'singleOrder', [{}], {});
    const check = checkRecord('singleOrder', entitySchema('singleOrder'), JSON.parse(text ?? '{}'));
    if (!check.ok) throw new Error('the seed has no single order');
    const name = `${recordBaseName(check.id, check.version)}.json`;
    mkdirSync(join(f.outbox, 'singleOrder'), { recursive: true });
    writeFileSync(join(f.outbox, 'singleOrder', name), 'a file the ERP put here');
    const hint =
      'refused by the ERP: 1 record version(s) in the dead letters (homecare-sync queue list --dead';

    const first = await f.cli('sync', '--once');
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(hint);
    const again = await f.cli('sync', '--once');
    expect(again.stderr).toMatch(/ handed to the ERP \(0 not yet, 1 refused\)/);
    expect(again.stderr).toContain(hint);
    expect(again.code).toBe(1);

    const dead = await f.cli('queue', 'list', '--dead');
    expect(dead.stdout).toMatch(
      new RegExp(
        `deliver\\.singleOrder\\s+singleOrder:${check.id}\\s+dead\\s+.*the ERP refused it`,
      ),
    );
    const status = await f.cli('status');
    expect(status.stdout).toMatch(
      new RegExp(
        `refused \\(job \\d+, queue retry \\d+ once fixed\\): singleOrder ${check.id} .*already exists with other content`,
      ),
    );
  });

  it('prints JSON log lines on stdout that never carry the API key', async () => {
    const f = folder();
    const result = await f.cli('sync', '--once');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(result.stdout + result.stderr).not.toContain(API_KEY);
  });

  it('exits 1 pointing at platform.apiKey when the platform refuses the key, without printing it', async () => {
    const wrongKey = 'hs-live-0000-not-known';
    const f = folder({
      platform: { baseUrl: sim.url, apiKey: wrongKey, variant: 'B', readRetry: { attempts: 1 } },
    });
    const result = await f.cli('sync', '--once');
    expect(result.code).toBe(1);
    const failed = result.stderr.split('\n').filter((line) => line.startsWith('pull failed: '));
    expect(failed.length).toBeGreaterThan(0);
    for (const line of failed) expect(line).toMatch(/HTTP 401; check platform\.apiKey/);
    expect(result.stdout + result.stderr).not.toContain(wrongKey);
  });

  it('exits 1 and names every pull that failed when the platform answers 503', async () => {
    const f = folder();
    await sim.control.setFault({ path: '/', errorStatus: 503 });
    const result = await f.cli('sync', '--once');
    expect(result.code).toBe(1);
    const failed = result.stderr.split('\n').filter((line) => line.startsWith('pull failed: '));
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.some((line) => line.startsWith('pull failed: singleOrder?status=created: ')),
    ).toBe(true);
    expect(failed.some((line) => line.startsWith('pull failed: article'))).toBe(true);
    expect(result.stderr).toMatch(/\b503\b/);
    expect(result.stderr).toContain('sync finished with problems');
    expect(f.outboxFiles()).toEqual([]);
  });

  it('exits 2 on an unknown resource name and lists the valid ones', async () => {
    const f = folder();
    const result = await f.cli('sync', 'orders', '--once');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('"orders" is not a resource name');
    expect(result.stderr).toContain(RESOURCE_NAMES.join(', '));
    expect(f.outboxFiles()).toEqual([]);
  });

  it('exits 2 on a resource this config does not pull (not in the variant, or disabled)', async () => {
    const listed = new Set(pullTargets(contractFor('B')).map((target) => target.resource));
    const absent = RESOURCE_NAMES.find((name) => !listed.has(name));
    if (absent === undefined) throw new Error('variant B lists every resource');
    const f = folder({ sync: { resources: { article: { enabled: false } } } });
    const result = await f.cli('sync', 'article', absent, 'patient');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`not pulled with this config: article, ${absent} (variant B`);
    expect(result.stderr).toMatch(/; pulled: patient, /);
    const list = await f.cli('checkpoint', 'list', '--json');
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('pulls only the resources named; orders wait for their care arrangements until those come', async () => {
    // Back-offs under a second: the waiting orders are due again by the next sync, and are
    // not tried twelve times within one.
    const f = folder({ retry: { maxAttempts: 12, baseDelayMs: 1000, maxDelayMs: 1000 } });
    const resourcesWithCheckpoints = async () => {
      const list = await f.cli('checkpoint', 'list', '--json');
      expect(list.code).toBe(0);
      const checkpoints = JSON.parse(list.stdout) as { resource: string; filter: string }[];
      return checkpoints;
    };

    const orders = await f.cli('sync', 'singleOrder');
    const waiting = /; 0 handed to the ERP \((\d+) not yet,/.exec(orders.stderr);
    expect(Number(waiting?.[1])).toBeGreaterThan(0);
    expect(orders.code).toBe(1);
    const checkpoints = await resourcesWithCheckpoints();
    expect(new Set(checkpoints.map((c) => c.resource))).toEqual(new Set(['singleOrder']));
    const filters = pullTargets(contractFor('B'))
      .filter((target) => target.resource === 'singleOrder')
      .map((target) => target.filter);
    expect(checkpoints.map((c) => c.filter).sort()).toEqual(filters.sort());
    const before = JSON.parse((await f.cli('status', '--json')).stdout) as StatusJson;
    expect(before.delivery.waiting.length).toBeGreaterThan(0);
    for (const entry of before.delivery.waiting)
      expect(entry.reason).toMatch(/\bwaits for integratedCare [0-9a-f-]+, not yet known/);
    expect(f.outboxFiles()).toEqual([]);

    const care = await f.cli('sync', 'integratedCare');
    expect(care.code).toBe(0);
    expect(new Set((await resourcesWithCheckpoints()).map((c) => c.resource))).toEqual(
      new Set(['singleOrder', 'integratedCare']),
    );
    const after = JSON.parse((await f.cli('status', '--json')).stdout) as StatusJson;
    expect(after.delivery.undelivered).toBe(0);
    const outboxFolders = new Set(f.outboxFiles().map((name) => name.split('/')[0]));
    expect(outboxFolders).toEqual(new Set(['singleOrder', 'integratedCare']));
  });
});

describe('sync --once after an outage', () => {
  // Waits of up to an hour: a job waiting for its back-off is not due again by the next sync.
  const slowRetry = { retry: { maxAttempts: 12, baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 } };

  const waitingJobs = async (f: CliFolder): Promise<QueuedJob[]> => {
    const list = await f.cli('queue', 'list', '--json');
    expect(list.code).toBe(0);
    return (JSON.parse(list.stdout) as QueuedJob[]).filter((job) => job.status === 'pending');
  };

  /** Syncs while every PATCH to the platform answers 503; returns the jobs left waiting. */
  async function syncDuringOutage(
    f: CliFolder,
    fault: { retryAfter?: string } = {},
  ): Promise<QueuedJob[]> {
    // The seed again: its orders still to be acknowledged, which earlier tests did.
    await sim.control.reset();
    await sim.control.setFault({ method: 'PATCH', errorStatus: 503, ...fault });
    const outage = await f.cli('sync', '--once');
    expect(outage.code).toBe(1);
    await sim.control.clearFaults();
    const waiting = await waitingJobs(f);
    expect(waiting.length).toBeGreaterThan(0);
    const now = Date.now();
    for (const job of waiting) {
      expect(job.kind).toMatch(/^ack\./);
      expect(job.attempts).toBe(1);
      expect(job.lastStatus).toBe(503);
      expect(Date.parse(job.nextAttemptAt)).toBeGreaterThan(now);
    }
    await sim.control.clearRequests();
    return waiting;
  }

  it('tries the jobs waiting for their back-off once more and exits 0 when they go through', async () => {
    const f = folder(slowRetry);
    const waiting = await syncDuringOutage(f);

    const after = await f.cli('sync', '--once');
    expect(after.stderr).toMatch(/; queue ran [1-9]\d*, 0 waiting, 0 new dead letters/);
    expect(after.code).toBe(0);
    const writes = (await sim.control.requests()).filter((entry) => entry.method === 'PATCH');
    expect(writes).toHaveLength(waiting.length);
    for (const write of writes) expect(write.status).toBe(200);
    expect(await waitingJobs(f)).toEqual([]);
  });

  it('leaves a job whose last answer carried a Retry-After still ahead, and exits 1', async () => {
    const f = folder(slowRetry);
    const waiting = await syncDuringOutage(f, { retryAfter: '3600' });

    const after = await f.cli('sync', '--once');
    expect(after.code).toBe(1);
    expect(after.stderr).toContain(`queue ran 0, ${waiting.length} waiting`);
    const writes = (await sim.control.requests()).filter((entry) => entry.method === 'PATCH');
    expect(writes).toEqual([]);
    expect(await waitingJobs(f)).toEqual(waiting);
    const [first] = waiting;
    const shown = await f.cli('queue', 'show', String(first?.id));
    expect(shown.stdout).toMatch(/next attempt: +\S+ \(its Retry-After; sync --once waits too\)/);
  });
});

describe('sync --once and the file inbox', () => {
  // Design, #23 (b): a file is complete only after two looks minFileAgeMs apart saw it unchanged,
  // however old its mtime; a one-shot pass makes both looks itself.
  it('takes a file written before the pass, looking twice minFileAgeMs apart', async () => {
    const f = folder();
    const inbox = join(f.folder, 'erp', 'inbox', 'patient');
    mkdirSync(inbox, { recursive: true });
    const patient = { customerId: 'K-ONCE-1', lastName: 'Einmal', regionId: 'r-1' };
    writeFileSync(join(inbox, 'k-once-1.json'), JSON.stringify(patient));

    const result = await f.cli('sync', '--once');
    expect(result.stderr).toContain('inbox 1 accepted / 0 rejected');
    expect(result.code).toBe(0);
    expect(readdirSync(inbox)).toEqual([]);
    const created = [...sim.state.store.list('demo', 'patient', [{}], {})]
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .filter((record) => record.customerId === 'K-ONCE-1');
    expect(created).toHaveLength(1);
  });

  it('counts each file’s messages and refused rows in the summary (issue 36)', async () => {
    const f = folder();
    const inbox = join(f.folder, 'erp', 'inbox', 'patient');
    mkdirSync(inbox, { recursive: true });
    writeFileSync(
      join(inbox, 'patients.csv'),
      [
        'customerId,lastName,regionId',
        'K-SUM-1,Eins,r-1',
        ',Ohne,r-1',
        'K-SUM-2,Zwei,r-1',
        'K-SUM-1,Eins,r-1',
      ].join('\n'),
    );
    const result = await f.cli('sync', '--once');
    expect(result.stderr).toContain('inbox 2 accepted / 1 rejected');
    expect(result.stderr).toMatch(
      /^inbox patient\/patients\.csv: 2 accepted, 1 row\(s\) refused; see \S+patients\.csv\.error\.json$/m,
    );
  });
});
