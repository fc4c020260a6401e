import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api } from '../../support/simulator.js';
import { API_KEY } from '../../support/cli/cliFolder.js';
import { eventually, withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

/** Orders acknowledged on the platform by the push test, for the daemon's test. */
let acknowledged: string[] = [];

interface JobRow {
  id: number;
  kind: string;
  entityKey: string;
  status: string;
  attempts: number;
}

const rig = useDaemonRig({
  simulator: { seed: 5 },
  // Inbox files with `.done` markers and quick loops, for the daemon of the last test.
  config: {
    erp: {
      adapter: 'file',
      file: { outbox: 'erp/outbox', inbox: 'erp/inbox', doneMarker: true, scanIntervalMs: 100 },
    },
    queue: { concurrency: 2, pollIntervalMs: 50 },
  },
});

/** The platform's records a write reached: anything but a read, by path. */
async function platformWrites(): Promise<string[]> {
  return (await rig().sim.control.requests()).filter((r) => r.method !== 'GET').map((r) => r.path);
}

async function jobs(): Promise<JobRow[]> {
  const listed = await rig().f.cli('queue', 'list', '--json');
  return JSON.parse(listed.stdout) as JobRow[];
}

/** The seed's single orders still waiting for their acknowledgement. */
async function createdOrders(): Promise<string[]> {
  const path = '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z';
  const answer = await api(rig().sim, 'GET', path, { key: API_KEY });
  return (answer.json as { _id: string }[]).map((order) => order._id);
}

/** The outbox's files of one patient (its `.done` markers left out). */
function patientFiles(id: string): string[] {
  const files = rig().f.outboxFiles();
  return files.filter((file) => file.startsWith(`patient/${id}_`) && file.endsWith('.json'));
}

/** An ERP message in the inbox, complete with its `.done` marker. */
function drop(kind: string, name: string, body: unknown): void {
  const folder = join(rig().f.folder, 'erp', 'inbox', kind);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, name), JSON.stringify(body));
  writeFileSync(join(folder, `${name}.done`), '');
}

// Each runs several commands as processes (about 0.5 s each): generous bounds for a busy CI.
describe('pause and resume', { timeout: 120_000 }, () => {
  it('refuse a name they do not know, naming the nearest', async () => {
    const { f } = rig();
    const pull = await f.cli('pause', 'pull', 'patiant');
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain(
      '"patiant" is not a resource variant B pulls; did you mean patient? One of: ',
    );
    const push = await f.cli('pause', 'push', 'singleOrder');
    expect(push.code).toBe(2);
    expect(push.stderr).toContain('did you mean ack.singleOrder?');
    expect((await f.cli('resume', 'push', 'orderStatos')).stderr).toContain(
      'did you mean orderStatus?',
    );
    expect((await f.cli('pause', 'sideways')).code).toBe(2);
    const status = JSON.parse((await f.cli('status', '--json')).stdout) as { paused: unknown[] };
    expect(status.paused).toEqual([]);
  });

  it('pause push: sync writes nothing to the platform and says what it held; status, queue show and trace show the pause; resumed, each write goes out once', async () => {
    const { sim, f } = rig();
    const orders = await createdOrders();
    expect(orders.length).toBeGreaterThan(0);
    const paused = await f.cli('pause', 'push');
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('every platform write: paused; ');
    expect((await f.cli('pause', 'push')).stdout).toContain('paused already, since ');
    await sim.control.clearRequests();

    const sync = await f.cli('sync');
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toMatch(
      /paused, not written to the platform: \d+ job\(s\) stay queued \(every kind; homecare-sync resume push \[kind\]\)/,
    );
    expect(await platformWrites()).toEqual([]);

    const status = await f.cli('status');
    expect(status.stdout).toMatch(
      /PAUSED: platform writes of every kind since \S+ by \S+ on \S+ \(homecare-sync resume push\)/,
    );
    const json = JSON.parse((await f.cli('status', '--json')).stdout) as {
      paused: Record<string, string>[];
    };
    expect(json.paused).toHaveLength(1);
    expect(json.paused[0]).toMatchObject({ direction: 'push', resource: '*' });
    expect(json.paused[0]?.['since']).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(json.paused[0]?.['by']).toMatch(/^\S+ on \S+$/);
    const held = (await jobs()).filter((job) => job.kind === 'ack.singleOrder');
    expect(held.length).toBe(orders.length);
    const [job] = held;
    if (job === undefined) throw new Error('no acknowledgement queued');
    expect((await f.cli('queue', 'show', String(job.id))).stdout).toMatch(
      /pause of push:\* by \S+ on \S+/,
    );
    const id = job.entityKey.replace('singleOrder:', '');
    expect((await f.cli('trace', id)).stdout).toMatch(/pause of push:\* by \S+ on \S+/);

    const resumed = await f.cli('resume', 'push');
    expect(resumed.stdout).toContain('every platform write: resumed; ');
    expect((await f.cli('resume', 'push')).stdout).toContain('was not paused; nothing changed');
    const again = await f.cli('sync');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('paused');
    const writes = await platformWrites();
    for (const order of orders) {
      expect(writes.filter((path) => path === `/singleOrder/${order}`)).toHaveLength(1);
      expect((await sim.control.getRecord('singleOrder', order))['status']).toBe(1);
    }
    expect((await f.cli('trace', id)).stdout).toMatch(/resume of push:\* by \S+ on \S+/);
    acknowledged = orders;
  });

  it('pause pull: sync leaves the resource alone and says so; resumed, it pulls what it missed', async () => {
    const { sim, f } = rig();
    const created = await sim.control.createRecord('patient', { lastName: 'Paused' });
    const id = String(created['_id']);
    expect((await f.cli('pause', 'pull', 'patient')).stdout).toContain(
      'the pulls of patient: paused; ',
    );
    const sync = await f.cli('sync');
    expect(sync.stderr).toContain(
      'paused, not pulled: patient (homecare-sync resume pull <resource>)',
    );
    expect(patientFiles(id)).toEqual([]);
    expect((await f.cli('status')).stdout).toContain('PAUSED: pulls of patient since ');

    expect((await f.cli('pause', 'pull')).code).toBe(0);
    const one = await f.cli('resume', 'pull', 'patient');
    expect(one.stdout).toContain('the pulls of patient: resumed; ');
    expect(one.stdout).toContain('still paused: every pull (homecare-sync resume pull)');
    expect((await f.cli('sync')).stderr).toContain('paused, not pulled: ');
    expect((await f.cli('resume', 'pull')).stdout).toContain('every pull: resumed; ');
    const resumed = await f.cli('sync');
    expect(resumed.stderr).not.toContain('paused');
    expect(patientFiles(id)).toHaveLength(1);
  });

  it('a running daemon heeds a pause another process makes, and a resume, without a restart', async () => {
    const { sim, f, start } = rig();
    const [order] = acknowledged;
    if (order === undefined) throw new Error('no order acknowledged by the tests before');
    const daemon = start();
    await daemon.waitForLog('homecare-sync started');
    expect((await f.cli('pause', 'push', 'orderStatus')).code).toBe(0);
    await sim.control.clearRequests();

    drop('orderStatus', 'answer.json', { orderType: 'single', id: order, status: 3 });
    const answer = await eventually('the answer to be queued', async () =>
      (await jobs()).find((job) => job.kind === 'orderStatus'),
    );
    // A later job of another kind that the daemon tried: its queue pass had the answer ready.
    const [patient] = (await api(sim, 'GET', '/patient', { key: API_KEY })).json as {
      _id: string;
    }[];
    drop('patientNote', 'note.json', { patientId: patient?._id, noteText: 'after the pause' });
    await eventually('the note to be written', async () =>
      (await platformWrites()).includes('/patientNote') ? true : undefined,
    );
    expect((await jobs()).find((job) => job.id === answer.id)).toMatchObject({
      status: 'pending',
      attempts: 0,
    });
    expect((await platformWrites()).filter((path) => path.startsWith('/singleOrder/'))).toEqual([]);

    expect((await f.cli('resume', 'push', 'orderStatus')).code).toBe(0);
    await eventually('the answer to reach the platform', async () =>
      (await sim.control.getRecord('singleOrder', order))['status'] === 3 ? true : undefined,
    );
    const writes = (await platformWrites()).filter((path) => path === `/singleOrder/${order}`);
    expect(writes).toHaveLength(1);
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to exit after SIGTERM')).toBe(0);
  });
});
