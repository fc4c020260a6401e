import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLabel } from '../../../src/log/index.js';
import { replayInboxMessage, type ReplayOutcome } from '../../../src/operations/replay.js';
import { renderTrace, traceKey } from '../../../src/cli/commands/trace.js';
import { findMirrorBy, getStoredJob, operatorActionsOn } from '../../../src/store/index.js';
import { useAppCycle } from '../../support/appCycle.js';
import { runCli } from '../../support/cli.js';
import { api } from '../../support/simulator.js';

type Order = Record<string, unknown> & { _id: string; patientId: string };

const OPERATOR = { osUser: 'tester', host: 'test-host' };
const PULLED = ['patient', 'article', 'integratedCare', 'singleOrder', 'erpOrder'] as const;

/**
 * `inbox replay`: an archived ERP message queued again as a new message, linked to the first in
 * the trace, audited; the platform write it makes is decided by the push-back's own write
 * (read before write), against the real simulator.
 */
describe('inbox replay', () => {
  const cycle = useAppCycle({ variant: 'B' });

  async function createdOrder(): Promise<Order> {
    const { sim } = cycle();
    const listed = await api(
      sim,
      'GET',
      '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
      { key: 'demo-key-2' },
    );
    const order = (listed.json as Order[])[0];
    if (order === undefined) throw new Error('the seed has no created singleOrder');
    return order;
  }

  const replay = (given: string): Promise<ReplayOutcome> =>
    replayInboxMessage(cycle().app.store, cycle().app.config, given, {
      cwd: cycle().rig.folder,
      operator: OPERATOR,
    });

  async function writes(): Promise<string[]> {
    const requests = await cycle().sim.control.requests();
    return requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  }

  /** An order acknowledged, then set to 3 with a salesId by the ERP's file status-1.json. */
  async function orderWithStatus(): Promise<Order> {
    const order = await createdOrder();
    await cycle().pass(PULLED);
    cycle().rig.drop('orderStatus', 'status-1.json', {
      orderType: 'single',
      id: order._id,
      status: 3,
      salesId: 'SO-REPLAY-1',
    });
    await cycle().pass(['singleOrder']);
    expect(await cycle().sim.control.getRecord('singleOrder', order._id)).toMatchObject({
      status: 3,
      salesId: 'SO-REPLAY-1',
    });
    return order;
  }

  it('queues an archived orderStatus again, sends nothing the order already carries, and shows both messages linked in the trace', async () => {
    const order = await orderWithStatus();
    await cycle().sim.control.clearRequests();

    const outcome = await replay('status-1.json');
    if (!outcome.ok) throw new Error(outcome.refused);
    const [replayed, ...others] = outcome.replays;
    expect(others).toEqual([]);
    expect(replayed).toMatchObject({ kind: 'orderStatus', entityKey: `singleOrder:${order._id}` });
    expect(replayed?.firstJobId).toEqual(expect.any(Number));
    expect(replayed?.jobId).toEqual(expect.any(Number));
    expect(replayed?.jobId).not.toBe(replayed?.firstJobId);

    const report = await cycle().pass(['singleOrder']);
    expect(report.queue.waiting).toBe(0);
    expect(getStoredJob(cycle().app.store, replayed?.jobId ?? 0)?.state).toBe('done');
    expect(await writes()).toEqual([]);

    const [record] = await traceKey({ config: cycle().rig.configPath }, 'status-1.json');
    const steps = record?.events.map((event) => event.what) ?? [];
    const at = (pattern: RegExp) => steps.findIndex((step) => pattern.test(step));
    // The file by its label, in the timeline and in the audit kept for good.
    const label = fileLabel('status-1.json');
    const first = steps.indexOf(`ERP orderStatus file ${label} received`);
    const again = steps.indexOf(
      `ERP orderStatus file ${label} replayed by an operator, as a new message`,
    );
    const audit = at(
      new RegExp(
        `^replay of job:${replayed?.jobId} \\(orderStatus file #[0-9a-f]{8}\\.json, first received .* as job ${replayed?.firstJobId}\\) by tester on test-host$`,
      ),
    );
    for (const index of [first, again, audit]) expect(index, steps.join('\n')).toBeGreaterThan(-1);
    expect(first).toBeLessThan(again);
    expect(renderTrace([record!])).toContain(`job ${replayed?.jobId} orderStatus done`);
    expect(operatorActionsOn(cycle().app.store, [`job:${replayed?.jobId}`])).toHaveLength(1);
  });

  it('writes again what the platform no longer holds: a salesId a platform user changed since', async () => {
    const order = await orderWithStatus();
    await cycle().sim.control.patchRecord('singleOrder', order._id, { salesId: 'CHANGED' });
    await cycle().pass(['singleOrder']);
    await cycle().sim.control.clearRequests();

    const archived = readdirSync(join(cycle().rig.inbox, '.archive', 'orderStatus'));
    const path = join(
      cycle().rig.inbox,
      '.archive',
      'orderStatus',
      archived[0] ?? '',
      'status-1.json',
    );
    const outcome = await replay(path);
    expect(outcome.ok).toBe(true);
    await cycle().pass(['singleOrder']);

    expect(await writes()).toEqual([`PATCH /singleOrder/${order._id}`]);
    expect(await cycle().sim.control.getRecord('singleOrder', order._id)).toMatchObject({
      status: 3,
      salesId: 'SO-REPLAY-1',
    });
  });

  it('replays an erpOrder without a second POST or PUT while the platform holds it, with a PUT once a platform user changed it, and not over a newer one', async () => {
    const order = await orderWithStatus();
    const erpOrder = {
      salesId: 'SO-REPLAY-1',
      patientId: order.patientId,
      outboundDate: '2026-03-01T12:00:00.000Z',
      deliveryAddress: {
        name: 'Erika Mustermann',
        address: 'Hauptstraße 5',
        postalCode: '50667',
        city: 'Köln',
      },
      erpOrderedArticleLines: [
        { articleDescription: 'Saugkompresse', quantity: 2, deliveredQuantity: 2 },
      ],
      trackingInfo: [{ trackingCode: '00340434161234567890' }],
      annotation: '',
      prescriptionStatus: 'originalReceived',
      trackingLink: '',
      therapyId: 3,
      completed: true,
    };
    cycle().rig.drop('erpOrder', 'erp-1.json', erpOrder);
    await cycle().pass(['erpOrder']);
    expect(await writes()).toContain('POST /erpOrder');
    await cycle().sim.control.clearRequests();

    const outcome = await replay('erp-1.json');
    expect(outcome.ok).toBe(true);
    await cycle().pass(['erpOrder']);

    expect(await writes()).toEqual([]);
    const [mirrored, ...twice] = findMirrorBy(
      cycle().app.store,
      'erpOrder',
      'salesId',
      'SO-REPLAY-1',
    );
    expect(twice).toEqual([]);

    // A platform user changed it since: the message asks for what the platform no longer holds.
    await cycle().sim.control.patchRecord('erpOrder', mirrored?.id ?? '', {
      annotation: 'changed',
    });
    await cycle().pass(['erpOrder']);
    await cycle().sim.control.clearRequests();
    expect((await replay('erp-1.json')).ok).toBe(true);
    await cycle().pass(['erpOrder']);
    expect(await writes()).toEqual(['PUT /erpOrder/SO-REPLAY-1']);
    expect(await cycle().sim.control.getRecord('erpOrder', mirrored?.id ?? '')).toMatchObject({
      annotation: '',
    });

    // A newer message replaced the ERP order: the older one is not sent over it.
    cycle().rig.drop('erpOrder', 'erp-2.json', { ...erpOrder, therapyId: 4 });
    await cycle().pass(['erpOrder']);
    const outdated = await replay('erp-1.json');
    expect(!outdated.ok && outdated.refused).toMatch(
      /^overtaken: a newer erpOrder message about erpOrder:SO-REPLAY-1, erp-2\.json \(received .*\), came after erp-1\.json/,
    );
  });

  it('makes no second note when a note’s create is replayed: the job asks a person to look first', async () => {
    const order = await orderWithStatus();
    cycle().rig.drop('patientNote', 'note-1.json', {
      patientId: order.patientId,
      noteText: 'Lieferung an die Nachbarin',
      status: 1,
    });
    await cycle().pass(['patientNote']);
    expect(await writes()).toContain('POST /patientNote');
    await cycle().sim.control.clearRequests();

    const outcome = await replay('note-1.json');
    if (!outcome.ok) throw new Error(outcome.refused);
    await cycle().pass(['patientNote']);
    expect(await writes()).toEqual([]);
    const job = getStoredJob(cycle().app.store, outcome.replays[0]?.jobId ?? 0);
    expect(job?.state).toBe('dead');
    expect(job?.lastError).toMatch(/may already exist on the platform/);
  });

  it('replays a patient’s create without handing the patient back to the ERP as a platform change', async () => {
    await orderWithStatus();
    const { rig } = cycle();
    const patient = {
      customerId: 'K-REPLAY-1',
      lastName: 'Wiederholt',
      firstName: 'Hanna',
      regionId: 'r-1',
    };
    rig.drop('patient', 'patient-1.json', patient);
    await cycle().pass(['patient']);
    expect(await writes()).toContain('POST /patient');
    const handed = () =>
      rig
        .outboxFiles('patient')
        .map(
          (file) =>
            JSON.parse(readFileSync(join(rig.outbox, 'patient', file), 'utf8')) as {
              customerId?: string;
            },
        )
        .filter((record) => record.customerId === patient.customerId);
    expect(handed()).toEqual([]);
    await cycle().sim.control.clearRequests();

    expect((await replay('patient-1.json')).ok).toBe(true);
    await cycle().pass(['patient']);
    await cycle().pass(['patient']);
    expect(await writes()).toEqual([]);
    expect(handed()).toEqual([]);
  });

  it('replays a request the endpoint kept, by its Idempotency-Key', async () => {
    const order = await orderWithStatus();
    const { app } = cycle();
    const body = { orderType: 'single', id: order._id, erpOrderNumber: 'ERP-77' };
    expect(app.inbound('orderStatus', body, 'erp-key-1').status).toBe('accepted');
    await cycle().pass(['singleOrder']);
    await cycle().sim.control.patchRecord('singleOrder', order._id, { erpOrderNumber: 'OTHER' });
    await cycle().pass(['singleOrder']);
    await cycle().sim.control.clearRequests();

    const outcome = await replay('erp-key-1');
    if (!outcome.ok) throw new Error(outcome.refused);
    expect(outcome.replays[0]?.first).toMatchObject({ source: 'http', name: 'erp-key-1' });
    await cycle().pass(['singleOrder']);
    expect(await writes()).toEqual([`PATCH /singleOrder/${order._id}`]);
    expect(await cycle().sim.control.getRecord('singleOrder', order._id)).toMatchObject({
      erpOrderNumber: 'ERP-77',
    });
    const found = await traceKey({ config: cycle().rig.configPath }, 'erp-key-1');
    expect(found.map((r) => r.id)).toEqual([order._id]);
  });

  it('refuses a name nothing carries, a file outside the archive, a rejected file and a message whose job still waits', async () => {
    const order = await orderWithStatus();
    const { rig, app } = cycle();

    const unknown = await replay('no-such-file.json');
    expect(unknown).toMatchObject({ ok: false });
    expect(!unknown.ok && unknown.refused).toContain('"no-such-file.json"');

    const outside = await replay(rig.configPath);
    expect(!outside.ok && outside.refused).toMatch(/is not in the inbox archive/);

    rig.drop('orderStatus', 'broken.json', { orderType: 'single' });
    await cycle().pass(['singleOrder']);
    expect(existsSync(join(rig.inbox, '.error', 'orderStatus', 'broken.json'))).toBe(true);
    const rejected = await replay('broken.json');
    expect(!rejected.ok && rejected.refused).toMatch(/set aside as rejected .*move it into/s);

    rig.drop('orderStatus', 'waiting.json', {
      orderType: 'single',
      id: order._id,
      erpOrderNumber: 'E-1',
    });
    await app.inbox?.scanOnce();
    const waiting = await replay('waiting.json');
    expect(!waiting.ok && waiting.refused).toMatch(/still pending: it runs on its own/);
  });

  it('runs from the CLI, exit 1 with the reason when refused', async () => {
    await orderWithStatus();
    const config = cycle().rig.configPath;
    const done = await runCli(['inbox', 'replay', 'status-1.json', '--config', config]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(
      /orderStatus status-1\.json \(first received .*\) queued again as job \d+/,
    );

    mkdirSync(join(cycle().rig.folder, 'elsewhere'));
    const stray = join(cycle().rig.folder, 'elsewhere', 'status-1.json');
    writeFileSync(stray, '{}');
    const refused = await runCli(['inbox', 'replay', stray, '--config', config]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not in the inbox archive');
  });
});
