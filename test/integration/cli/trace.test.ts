import { describe, expect, it } from 'vitest';
import { renderTrace, traceKey } from '../../../src/cli/commands/trace.js';
import { fileLabel } from '../../../src/log/index.js';
import { useAppCycle } from '../../support/appCycle.js';
import { runCli } from '../../support/cli.js';
import { firstCreatedOrder } from '../../support/simulator.js';

/**
 * `trace <key>`: one order through the whole cycle with a fault on the way (the acknowledgement
 * answered 503 once), followed by each kind of key, in text and JSON.
 */
describe('trace', () => {
  const cycle = useAppCycle({ variant: 'B' });

  async function tracedOrder() {
    const { sim, rig } = cycle();
    const order = await firstCreatedOrder(sim);
    await sim.control.setFault({
      method: 'PATCH',
      path: '/singleOrder/',
      times: 1,
      errorStatus: 503,
    });
    await cycle().pass(['patient', 'article', 'integratedCare', 'singleOrder']);
    await cycle().pass(['singleOrder']);
    rig.drop('orderStatus', 'status-1.json', {
      orderType: 'single',
      id: order._id,
      status: 3,
      salesId: 'SO-TRACE-1',
    });
    await cycle().pass(['singleOrder']);
    return order;
  }

  it('shows every step of an order in order: pulled, handed over, acknowledged after a retry, the ERP status and its write', async () => {
    const order = await tracedOrder();
    const [record, ...others] = await traceKey({ config: cycle().rig.configPath }, order._id);
    expect(others).toEqual([]);
    expect(record).toMatchObject({ resource: 'singleOrder', id: order._id });
    const steps = record?.events.map((event) => event.what) ?? [];
    const at = (pattern: RegExp) => steps.findIndex((step) => pattern.test(step));

    const pulled = at(/^pulled version /);
    const handed = at(/^handed version .* to the ERP/);
    const ackQueued = at(/^job \d+ ack\.singleOrder queued$/);
    const ackDone = at(
      /^job \d+ ack\.singleOrder done after 1 failed try \(the last: HTTP 503.*\): platform answered 200$/,
    );
    // The ERP's file by its label, as logs name it (an ERP may name files after patients).
    const message = steps.indexOf(`ERP orderStatus file ${fileLabel('status-1.json')} received`);
    // What the push-back wrote (issue 40, item 6), as its log line says it.
    const statusDone = at(
      /^job \d+ orderStatus done \(status 3, salesId SO-TRACE-1\): platform answered 200$/,
    );
    const echo = at(/is our own write coming back: not handed to the ERP/);
    const ours = at(/^our last write to it/);
    for (const index of [pulled, handed, ackQueued, ackDone, message, statusDone, echo, ours]) {
      expect(index, steps.join('\n')).toBeGreaterThanOrEqual(0);
    }
    expect(pulled).toBeLessThan(handed);
    expect(handed).toBeLessThanOrEqual(ackQueued);
    expect(ackQueued).toBeLessThan(ackDone);
    expect(ackDone).toBeLessThan(message);
    expect(message).toBeLessThan(statusDone);
    const times = record?.events.map((event) => event.at) ?? [];
    expect(times).toEqual([...times].sort());

    const text = renderTrace([record!]);
    expect(text.split('\n')[0]).toBe(`singleOrder ${order._id}`);
    expect(text).toContain('ack.singleOrder done after 1 failed try');
  });

  it('finds the order by its salesId, a job id, the inbox file (or its label) and the outbox file, and nothing by an unknown key', async () => {
    const order = await tracedOrder();
    const options = { config: cycle().rig.configPath };
    const [byId] = await traceKey(options, order._id);
    const jobId = byId?.events.find((event) => event.job !== undefined)?.job;
    const outboxFile = cycle()
      .rig.outboxFiles('singleOrder')
      .find((f) => f.startsWith(order._id));
    const label = fileLabel('status-1.json');
    for (const key of ['SO-TRACE-1', String(jobId), 'status-1.json', label, String(outboxFile)]) {
      const found = await traceKey(options, key);
      expect(
        found.map((r) => r.id),
        key,
      ).toContain(order._id);
    }
    expect(await traceKey(options, 'no-such-key')).toEqual([]);
  });

  it('prints JSON with --json, and exits 1 naming a key it does not know', async () => {
    const order = await tracedOrder();
    const config = cycle().rig.configPath;
    const json = await runCli(['trace', order._id, '--json', '--config', config]);
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as {
      key: string;
      records: { id: string; events: unknown[] }[];
    };
    expect(parsed.key).toBe(order._id);
    expect(parsed.records[0]?.events.length).toBeGreaterThan(4);

    const unknown = await runCli(['trace', 'no-such-key', '--config', config]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"no-such-key"');
  });
});
