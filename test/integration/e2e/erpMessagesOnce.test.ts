import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { replayInboxMessage } from '../../../src/operations/replay.js';
import { ORDER_STATUS } from '../../../src/contract/index.js';
import { germanErpFileSettings } from '../../support/docs/mappingExamples.js';
import { dropInto, germanExport } from '../../support/erp/erpDrops.js';
import { useAppCycle } from '../../support/appCycle.js';
import { api, type TestSimulator } from '../../support/simulator.js';

/**
 * Issue 36, items 1–3, through the daemon against the simulator: an ERP message is known by
 * what it says (kind, business key, content), never by its file or line; the rows of one key in
 * one file are one message; a message older than the last one handled for its entity is refused
 * as overtaken, replays included. The ERP is the German ERP of docs/readme/connect-your-erp.md.
 */
const STATUS_HEADER = 'Shop-Auftrag;Belegnummer;Status;Sendungsnummer;Tracking-Link';
const DELIVERY_HEADER =
  'Lieferschein;Kundennummer;Versanddatum;Name;Strasse;PLZ;Ort;Artikel;Menge;Geliefert;Paket';
const OPERATOR = { osUser: 'tester', host: 'test-host' };
const PULLED = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;

/** The German ERP's delivery export: one row per line and parcel, as `erpOrder` messages. */
const DELIVERIES = {
  format: 'csv',
  fields: {
    salesId: 'Lieferschein',
    patientCustomerId: 'Kundennummer',
    outboundDate: { from: 'Versanddatum', date: 'dd.MM.yyyy HH:mm' },
    'deliveryAddress.name': 'Name',
    'deliveryAddress.address': 'Strasse',
    'deliveryAddress.postalCode': 'PLZ',
    'deliveryAddress.city': 'Ort',
    'erpOrderedArticleLines.articleDescription': 'Artikel',
    'erpOrderedArticleLines.quantity': 'Menge',
    'erpOrderedArticleLines.deliveredQuantity': 'Geliefert',
    'trackingInfo.0.trackingCode': 'Paket',
    annotation: { value: '-' },
    prescriptionStatus: { value: 'originalReceived' },
    trackingLink: { value: 'https://tracking.example.com/' },
    therapyId: { value: 3 },
    completed: { value: true },
  },
};

function settings(): Record<string, unknown> {
  const file = germanErpFileSettings() as { inboxMapping: Record<string, unknown> };
  return { ...file, inboxMapping: { ...file.inboxMapping, erpOrder: DELIVERIES } };
}

async function patches(sim: TestSimulator, id: string): Promise<number> {
  const requests = await sim.control.requests();
  return requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/${id}`)).length;
}

describe('an ERP message exactly once, by what it says (German ERP, variant B)', () => {
  const cycle = useAppCycle({ variant: 'B', file: settings() });
  const pass = () => cycle().pass([...PULLED, 'erpOrder']);
  const dropExport = (kind: string, name: string, rows: string[]) =>
    dropInto(cycle().rig.inbox, kind, name, germanExport(rows));
  const errorReport = (kind: string, name: string) =>
    JSON.parse(
      readFileSync(join(cycle().rig.inbox, '.error', kind, `${name}.error.json`), 'utf8'),
    ) as {
      reason: string;
      problems: { line?: number; path?: string; message: string }[];
    };

  /** An order the daemon pulled, handed to the ERP and acknowledged: the first of the file. */
  async function handedOrder(): Promise<{ id: string; patientCustomerId: string }> {
    const { rig, sim } = cycle();
    await pass();
    const [file] = rig.outboxFiles('singleOrder');
    const text = iconv.decode(readFileSync(join(rig.outbox, 'singleOrder', file ?? '')), 'cp1252');
    const rows = parse<Record<string, string>>(text, { columns: true, delimiter: ';' });
    const row = rows.find((r) => r.Kundennummer !== '');
    if (row === undefined)
      throw new Error('no order of a patient with a customerId was handed over');
    const id = row['Shop-Auftrag'] ?? '';
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Transmitted,
    });
    return { id, patientCustomerId: row.Kundennummer ?? '' };
  }

  /** Another order the daemon handed to the ERP with the first one. */
  function secondOrder(first: string): string {
    const { rig } = cycle();
    const [file] = rig.outboxFiles('singleOrder');
    const text = iconv.decode(readFileSync(join(rig.outbox, 'singleOrder', file ?? '')), 'cp1252');
    const rows = parse<Record<string, string>>(text, { columns: true, delimiter: ';' });
    const other = rows.find((row) => row['Shop-Auftrag'] !== first)?.['Shop-Auftrag'];
    if (other === undefined) throw new Error('only one order was handed over');
    return other;
  }

  it('one ERP order over two rows of one file (parcels PK-1 and PK-2) is one message: both lines and both parcels reach the platform', async () => {
    const { sim } = cycle();
    const { patientCustomerId } = await handedOrder();
    const common = `LS-4711;${patientCustomerId};03.03.2026 14:30;Erika Mustermann;Hauptstraße 5;50667;Köln`;
    dropExport('erpOrder', 'Lieferungen-1.csv', [
      DELIVERY_HEADER,
      `${common};Saugkompresse steril;2;2;PK-1`,
      `${common};Fixiervlies 10 cm;1;1;PK-2`,
    ]);
    const report = await pass();
    expect(report.inbox?.files).toEqual([
      expect.objectContaining({ file: 'Lieferungen-1.csv', status: 'accepted', accepted: 1 }),
    ]);
    const found = await api(sim, 'GET', '/erpOrder/LS-4711');
    expect(found.status).toBe(200);
    const erpOrder = found.json as Record<string, unknown>;
    expect(erpOrder.trackingInfo).toEqual([{ trackingCode: 'PK-1' }, { trackingCode: 'PK-2' }]);
    expect(erpOrder.erpOrderedArticleLines).toEqual([
      expect.objectContaining({ articleDescription: 'Saugkompresse steril', quantity: 2 }),
      expect.objectContaining({ articleDescription: 'Fixiervlies 10 cm', quantity: 1 }),
    ]);
  });

  it('two rows of one order status (PK-1, PK-2) give the order both parcels', async () => {
    const { sim } = cycle();
    const { id } = await handedOrder();
    dropExport('orderStatus', 'Rueckmeldung-1.csv', [
      STATUS_HEADER,
      `${id};VK-1;Versendet;PK-1;https://tracking.example.com/?nr=PK-1`,
      `${id};VK-1;Versendet;PK-2;https://tracking.example.com/?nr=PK-2`,
    ]);
    await pass();
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
      salesId: 'VK-1',
      trackingInfo: [
        { trackingCode: 'PK-1', trackingLink: 'https://tracking.example.com/?nr=PK-1' },
        { trackingCode: 'PK-2', trackingLink: 'https://tracking.example.com/?nr=PK-2' },
      ],
    });
  });

  it('an order’s parcels over two files (a part shipment each) both stay on the order', async () => {
    const { sim } = cycle();
    const { id } = await handedOrder();
    dropExport('orderStatus', 'Rueckmeldung-1.csv', [
      STATUS_HEADER,
      `${id};VK-1;Teilgeliefert;PK-1;`,
    ]);
    await pass();
    dropExport('orderStatus', 'Rueckmeldung-2.csv', [
      STATUS_HEADER,
      `${id};VK-1;Versendet;PK-2;`,
      `${id};VK-1;Versendet;PK-1;https://tracking.example.com/?nr=PK-1`,
    ]);
    await pass();
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
      trackingInfo: [
        { trackingCode: 'PK-1', trackingLink: 'https://tracking.example.com/?nr=PK-1' },
        { trackingCode: 'PK-2' },
      ],
    });
  });

  it('rows of one order that disagree in a single-valued field are refused together, with a report naming the rows and the field; the other rows go on', async () => {
    const { sim } = cycle();
    const { id } = await handedOrder();
    const other = secondOrder(id);
    dropExport('orderStatus', 'Rueckmeldung-2.csv', [
      STATUS_HEADER,
      `${id};VK-1;Versendet;PK-1;`,
      `${other};VK-2;Uebermittelt;;`,
      `${id};VK-1;Zugestellt;PK-2;`,
    ]);
    await pass();
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Transmitted,
    });
    expect(await sim.control.getRecord('singleOrder', other)).toMatchObject({ salesId: 'VK-2' });
    const report = errorReport('orderStatus', 'Rueckmeldung-2.csv');
    expect(report.problems).toEqual([
      expect.objectContaining({
        line: 2,
        path: 'status',
        message: expect.stringMatching(/rows 2 and 4/) as string,
      }),
      expect.objectContaining({
        line: 4,
        path: 'status',
        message: expect.stringMatching(/rows 2 and 4/) as string,
      }),
    ]);
  });

  it('the same rows exported again under another name are a repeat: nothing is sent again', async () => {
    const { sim } = cycle();
    const { id } = await handedOrder();
    const rows = [STATUS_HEADER, `${id};VK-1;Versendet;PK-1;`];
    dropExport('orderStatus', 'Rueckmeldung-1.csv', rows);
    await pass();
    expect(await patches(sim, id)).toBe(2);
    dropExport('orderStatus', 'Export-2026-03-03.csv', rows);
    const report = await pass();
    expect(report.inbox?.files).toEqual([
      expect.objectContaining({ file: 'Export-2026-03-03.csv', status: 'repeat', repeat: 1 }),
    ]);
    expect(await patches(sim, id)).toBe(2);
  });

  it('a fixed file with its bad row replaced (the lines shift): only the fixed row acts, the order that moved on since stays', async () => {
    const { sim } = cycle();
    const { id } = await handedOrder();
    const other = secondOrder(id);
    dropExport('orderStatus', 'Rueckmeldung.csv', [
      STATUS_HEADER,
      'x;VK-9;Uebermittelt;;',
      `${id};VK-1;Uebermittelt;;`,
    ]);
    await pass();
    expect(errorReport('orderStatus', 'Rueckmeldung.csv').problems).toEqual([
      expect.objectContaining({ line: 2 }),
    ]);
    dropExport('orderStatus', 'Rueckmeldung-2.csv', [STATUS_HEADER, `${id};VK-1;Versendet;PK-1;`]);
    await pass();
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
    });
    const before = await patches(sim, id);
    dropExport('orderStatus', 'Rueckmeldung.csv', [
      STATUS_HEADER,
      `${id};VK-1;Uebermittelt;;`,
      `${other};VK-2;Uebermittelt;;`,
    ]);
    await pass();
    expect(await patches(sim, id)).toBe(before);
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
    });
    expect(await sim.control.getRecord('singleOrder', other)).toMatchObject({ salesId: 'VK-2' });
  });

  it('an older orderStatus message dropped again after a newer one writes nothing: the order stays Sent', async () => {
    const { sim } = cycle();
    const { id } = await handedOrder();
    dropExport('orderStatus', 'Rueckmeldung-1.csv', [STATUS_HEADER, `${id};VK-1;Uebermittelt;;`]);
    await pass();
    dropExport('orderStatus', 'Rueckmeldung-2.csv', [STATUS_HEADER, `${id};VK-1;Versendet;PK-1;`]);
    await pass();
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
    });
    dropExport('orderStatus', 'Rueckmeldung-1-nochmal.csv', [
      STATUS_HEADER,
      `${id};VK-1;Uebermittelt;;`,
    ]);
    const before = await patches(sim, id);
    const report = await pass();
    expect(report.inbox?.files).toEqual([
      expect.objectContaining({ file: 'Rueckmeldung-1-nochmal.csv', overtaken: 1 }),
    ]);
    expect(await patches(sim, id)).toBe(before);
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
    });
  });

  it('inbox replay of an older orderStatus after a newer one is refused as overtaken; the order stays Sent', async () => {
    const { sim, app, rig } = cycle();
    const { id } = await handedOrder();
    dropExport('orderStatus', 'Rueckmeldung-1.csv', [STATUS_HEADER, `${id};VK-1;Uebermittelt;;`]);
    await pass();
    dropExport('orderStatus', 'Rueckmeldung-2.csv', [STATUS_HEADER, `${id};VK-1;Versendet;PK-1;`]);
    await pass();
    const outcome = await replayInboxMessage(app.store, app.config, 'Rueckmeldung-1.csv', {
      cwd: rig.folder,
      operator: OPERATOR,
    });
    expect(!outcome.ok && outcome.refused).toMatch(/overtaken.*Rueckmeldung-2\.csv/);
    await pass();
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
    });
  });

  it('a message whose ERP stamp is older than the last handled one is refused as overtaken', async () => {
    const { sim, rig } = cycle();
    const { id } = await handedOrder();
    rig.drop('orderStatus', 'neu.json', {
      orderType: 'single',
      id,
      status: ORDER_STATUS.Sent,
      erpTimestamp: '2026-03-03T12:00:00+01:00',
    });
    await pass();
    rig.drop('orderStatus', 'alt.json', {
      orderType: 'single',
      id,
      status: ORDER_STATUS.Processed,
      erpTimestamp: '2026-03-03T09:00:00+01:00',
    });
    const report = await pass();
    expect(report.inbox?.files).toEqual([
      expect.objectContaining({ file: 'alt.json', overtaken: 1 }),
    ]);
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
    });
    expect(existsSync(join(rig.inbox, '.error'))).toBe(false);
    expect(readdirSync(join(rig.inbox, '.archive', 'orderStatus'))).toHaveLength(1);
  });
});
