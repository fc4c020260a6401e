import { describe, expect, it } from 'vitest';
import { useAppCycle } from '../../support/appCycle.js';
import { runCli } from '../../support/cli.js';
import { api, firstCreatedOrder } from '../../support/simulator.js';

type Row = Record<string, unknown> & { _id: string };

interface Traced {
  key: string;
  records: { resource: string; id: string; events: { kind: string; what: string }[] }[];
}

/** Keys no seeded record holds, so a trace finds them only through what the test did. */
const ERP_ORDER_NUMBER = 'AB-2026-0815';
const ERP_ORDER_SALES_ID = 'EO-TRACE-7';
const GIVEN_CUSTOMER_ID = 'K-TRACE-7';
const REFUSED_CUSTOMER_ID = 'K-TRACE-REFUSED';
const UNPULLED_SALES_ID = 'SO-TRACE-UNPULLED';

/**
 * `trace <key>` by the keys trace.test.ts does not try: the ERP's order number (an order's
 * `erpOrderNumber`, set by an orderStatus message; an ERP order's own number, its salesId) and
 * a patient's customerId, also of records only the queue knows (a salesId or customerId the
 * platform has not got), each through the real CLI, in text and with `--json`.
 */
describe('trace by the ERP order number and the patient customerId', () => {
  const cycle = useAppCycle({ variant: 'B' });

  async function trace(key: string): Promise<{ text: string; json: Traced }> {
    const config = cycle().rig.configPath;
    const text = await runCli(['trace', key, '--config', config]);
    expect(text.code, text.stderr).toBe(0);
    const json = await runCli(['trace', key, '--json', '--config', config]);
    expect(json.code, json.stderr).toBe(0);
    return { text: text.stdout, json: JSON.parse(json.stdout) as Traced };
  }

  /** The indexes of the lines matching each pattern, each required to be there. */
  function linesOf(text: string, patterns: readonly RegExp[]): number[] {
    const lines = text.split('\n');
    return patterns.map((pattern) => {
      const index = lines.findIndex((line) => pattern.test(line));
      expect(index, `${String(pattern)} in\n${text}`).toBeGreaterThanOrEqual(0);
      return index;
    });
  }

  const ascending = (indexes: readonly number[]) =>
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));

  it("finds an order by the erpOrderNumber an ERP's orderStatus message gave it", async () => {
    const order = await firstCreatedOrder(cycle().sim);
    await cycle().pass(['patient', 'article', 'integratedCare', 'singleOrder']);
    cycle().rig.drop('orderStatus', 'number-1.json', {
      orderType: 'single',
      id: order._id,
      erpOrderNumber: ERP_ORDER_NUMBER,
    });
    await cycle().pass(['singleOrder']);
    expect(await cycle().sim.control.getRecord('singleOrder', order._id)).toMatchObject({
      erpOrderNumber: ERP_ORDER_NUMBER,
    });

    const { text, json } = await trace(ERP_ORDER_NUMBER);
    expect(text.split('\n')[0]).toBe(`singleOrder ${order._id}`);
    ascending(
      linesOf(text, [
        /pulled version \S+ \(run \d+\): new$/,
        /handed version \S+ to the ERP as singleOrder\/\S+\.json; acknowledgement/,
        /ERP orderStatus file #[0-9a-f]{8}\.json received$/,
        new RegExp(
          `job \\d+ orderStatus done \\(erpOrderNumber ${ERP_ORDER_NUMBER}\\): platform answered 200$`,
        ),
      ]),
    );
    expect(json.key).toBe(ERP_ORDER_NUMBER);
    expect(json.records.map(({ resource, id }) => ({ resource, id }))).toEqual([
      { resource: 'singleOrder', id: order._id },
    ]);
    const messages = json.records[0]?.events.filter((event) => event.kind === 'message');
    expect(messages?.map((event) => event.what)).toEqual([
      expect.stringMatching(/#[0-9a-f]{8}\.json received$/),
    ]);
  });

  it('finds an ERP order by its own number, the salesId it was sent with', async () => {
    const order = await firstCreatedOrder(cycle().sim);
    await cycle().pass(['patient', 'article', 'integratedCare', 'singleOrder']);
    cycle().rig.drop('erpOrder', 'erp-order-1.json', {
      salesId: ERP_ORDER_SALES_ID,
      patientId: order['patientId'],
      outboundDate: '2026-03-01T12:00:00.000Z',
      deliveryAddress: {
        name: 'Lager',
        address: 'Hafenstraße 1',
        postalCode: '50667',
        city: 'Köln',
      },
      erpOrderedArticleLines: [{ articleDescription: 'Saugkompresse', quantity: 2 }],
      // Variant B's body schema marks every ERP order field required.
      annotation: '',
      prescriptionStatus: 'originalReceived',
      trackingLink: 'https://track.example/1',
      therapyId: 3,
      completed: false,
      trackingInfo: [],
    });
    await cycle().pass(['erpOrder']);
    await cycle().pass(['erpOrder']);

    const { text, json } = await trace(ERP_ORDER_SALES_ID);
    const [record, ...others] = json.records;
    expect(others).toEqual([]);
    expect(record?.resource).toBe('erpOrder');
    expect(text.split('\n')[0]).toBe(`erpOrder ${record?.id}`);
    ascending(
      linesOf(text, [
        /ERP erpOrder file #[0-9a-f]{8}\.json received$/,
        new RegExp(
          `job \\d+ erpOrder done \\(salesId ${ERP_ORDER_SALES_ID}\\): platform answered 20\\d$`,
        ),
        /our last write to it/,
      ]),
    );
  });

  it("finds a patient by the customerId the ERP gave it: its versions, hand-overs and the ERP's job", async () => {
    const patients = (await api(cycle().sim, 'GET', '/patient')).json as Row[];
    const patient = patients.find((p) => p['customerId'] === undefined && p['archived'] !== true);
    if (patient === undefined) throw new Error('the seed has no patient without a customerId');
    await cycle().pass(['patient']);
    cycle().rig.drop('patient', 'patient-1.json', {
      _id: patient._id,
      customerId: GIVEN_CUSTOMER_ID,
    });
    await cycle().pass(['patient']);
    await cycle().pass(['patient']);

    const { text, json } = await trace(GIVEN_CUSTOMER_ID);
    expect(text.split('\n')[0]).toBe(`patient ${patient._id}`);
    ascending(
      linesOf(text, [
        /pulled version \S+ \(run \d+\): new$/,
        /handed version \S+ to the ERP as patient\/\S+\.json$/,
        /ERP patient file #[0-9a-f]{8}\.json received$/,
        /job \d+ patient queued$/,
        /job \d+ patient done: platform answered 20\d$/,
        /our last write to it/,
      ]),
    );
    expect(json.key).toBe(GIVEN_CUSTOMER_ID);
    expect(json.records.map(({ resource, id }) => ({ resource, id }))).toEqual([
      { resource: 'patient', id: patient._id },
    ]);
    const kinds = new Set(json.records[0]?.events.map((event) => event.kind));
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['handOver', 'job', 'message', 'ownWrite', 'version']),
    );
  });

  it('finds an order status the ERP sent by a salesId no pull has brought', async () => {
    cycle().rig.drop('orderStatus', 'unknown-order.json', {
      orderType: 'single',
      salesId: UNPULLED_SALES_ID,
      status: 3,
    });
    await cycle().pass(['patient']);

    const { text, json } = await trace(UNPULLED_SALES_ID);
    expect(text.split('\n')[0]).toBe(`singleOrder salesId:${UNPULLED_SALES_ID}`);
    ascending(
      linesOf(text, [
        /ERP orderStatus file #[0-9a-f]{8}\.json received$/,
        /job \d+ orderStatus queued$/,
        /job \d+ orderStatus pending \(status 3, salesId \S+\) after 1 failed try \(the last: .*no single order with salesId/,
      ]),
    );
    expect(json.records.map(({ resource }) => resource)).toEqual(['singleOrder']);
  });

  it('finds a patient the platform refused to create by its customerId, with the dead letter', async () => {
    await cycle().pass(['patient']);
    await cycle().sim.control.setFault({
      method: 'POST',
      path: '/patient',
      times: 1,
      errorStatus: 422,
    });
    cycle().rig.drop('patient', 'new-patient.json', {
      customerId: REFUSED_CUSTOMER_ID,
      firstName: 'Neu',
      lastName: 'Angelegt',
    });
    await cycle().pass(['patient']);

    const { text, json } = await trace(REFUSED_CUSTOMER_ID);
    expect(text.split('\n')[0]).toBe(`patient ${REFUSED_CUSTOMER_ID}`);
    ascending(
      linesOf(text, [
        /ERP patient file #[0-9a-f]{8}\.json received$/,
        /job \d+ patient queued$/,
        /job \d+ patient dead after 1 failed try \(the last: HTTP 422/,
        /job \d+ dead: /,
      ]),
    );
    expect(json.records.map(({ resource, id }) => ({ resource, id }))).toEqual([
      { resource: 'patient', id: REFUSED_CUSTOMER_ID },
    ]);
    expect(text).not.toContain('Angelegt');
  });
});
