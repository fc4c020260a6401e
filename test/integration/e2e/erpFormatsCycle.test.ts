import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { fileAdapterOptions } from '../../../src/deliver/adapter.js';
import type { App } from '../../../src/app/app.js';
import { ORDER_STATUS, type Variant } from '../../../src/contract/index.js';
import { mirroredHandOver } from '../../../src/deliver/preview.js';
import { createFileAdapter } from '../../../src/erp/outbound/file/index.js';
import { germanErpFileSettings } from '../../support/docs/mappingExamples.js';
import { dropInto, germanExport } from '../../support/erp/erpDrops.js';
import { dispatchNotification, orderResponse } from '../../support/erp/openTransAnswers.js';
import { openTransProblems } from '../../support/erp/openTransSchema.js';
import { useAppCycle } from '../../support/appCycle.js';
import type { TestSimulator } from '../../support/simulator.js';

/**
 * The round trip of issue #26 in the ERP's formats, against the simulator in each variant (and
 * of issue 36: the same answer again is a repeat, an older one overtaken, the rows of one order
 * or delivery one message with every parcel and line once): an
 * order pulled goes out as the German ERP's CSV of docs/examples/mapping (`;`, Windows-1252,
 * decimal comma, a row per line) — the daemon's outbox — and, through a file adapter set to
 * openTRANS, as an ORDER valid against the openTRANS 2.1 schema. The ERP answers with an
 * ORDERRESPONSE (its order number), a DISPATCHNOTIFICATION for part of the order (PartiallySent,
 * tracking) and its CSV status export (Sent, the second parcel); the platform shows each, and the
 * order is acknowledged once. Bad exports end in `.error/orderStatus/` with a report.
 */
const HEADER = 'Shop-Auftrag;Belegnummer;Status;Sendungsnummer;Tracking-Link';

function germanErpCycle(variant: Variant) {
  const cycle = useAppCycle({ variant, file: germanErpFileSettings() });
  const pass = () => cycle().pass(['patient', 'article', 'integratedCare', 'singleOrder']);
  const dropIn = (folder: string, name: string, data: string | Buffer) =>
    dropInto(cycle().rig.inbox, folder, name, data);
  const dropExport = (name: string, rows: string[]) =>
    dropIn('orderStatus', name, germanExport(rows));
  return { cycle, pass, dropIn, dropExport };
}

/** The PATCHes the daemon sent for `id`: the acknowledgement and every answer's write. */
async function patchesOf(sim: TestSimulator, id: string): Promise<number> {
  const requests = await sim.control.requests();
  return requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/${id}`)).length;
}

/** The order as the ERP's openTRANS import would get it: the mirror's hand-over, as an ORDER. */
async function openTransOrder(app: App, id: string, outbox: string): Promise<string> {
  const found = mirroredHandOver(app.store, 'singleOrder', id);
  if (found.found !== 'record') throw new Error(`singleOrder ${id} is not in the mirror`);
  const options = { ...fileAdapterOptions(app.config), outbox, format: 'xml' as const };
  const adapter = await createFileAdapter(
    { ...options, openTrans: true, mapping: {}, doneMarker: false },
    { clock: app.clock },
  );
  const [outcome] = await adapter.deliver([found.outbound], 1);
  await adapter.close();
  expect(outcome?.status).toBe('delivered');
  const [file] = readdirSync(join(outbox, 'singleOrder')).filter((name) => !name.startsWith('.'));
  return readFileSync(join(outbox, 'singleOrder', file ?? ''), 'utf8');
}

/** The order's lines as the ORDER names them, for the ERP's answers to refer to. */
function orderItems(order: string): { lineItemId: string; quantity: number }[] {
  return [...order.matchAll(/<ORDER_ITEM>[\s\S]*?<\/ORDER_ITEM>/g)].map(([item]) => ({
    lineItemId: /<LINE_ITEM_ID>([^<]+)</.exec(item)?.[1] ?? '',
    quantity: Number(/<QUANTITY>([^<]+)</.exec(item)?.[1]),
  }));
}

describe.each(['A', 'B', 'C'] as const)(
  'variant %s: an order both ways in the ERP’s formats (mapped CSV, openTRANS)',
  (variant) => {
    const { cycle, pass, dropIn, dropExport } = germanErpCycle(variant);

    it('writes the order as the ERP’s CSV and as a valid ORDER; its answers reach the platform, the order acknowledged once', async () => {
      const { sim, rig, app } = cycle();
      await pass();
      const [file] = rig.outboxFiles('singleOrder');
      if (file === undefined) throw new Error('no single order file was written');
      expect(file).toMatch(/^singleOrder_\d{10}\.csv$/);
      const text = iconv.decode(
        readFileSync(join(rig.outbox, 'singleOrder', file)),
        'windows-1252',
      );
      const rows = parse<Record<string, string>>(text, { columns: true, delimiter: ';' });
      expect(Object.keys(rows[0] ?? {})).toEqual([
        'Auftragsart',
        'Shop-Auftrag',
        'Kundennummer',
        'Name',
        'Strasse',
        'PLZ',
        'Ort',
        'Lieferdatum',
        'Eingang',
        'Express',
        'Hinweis',
        'Status',
        'Artikelnummer',
        'Bezeichnung',
        'Menge',
        'Einheit',
      ]);
      // An order of more than one line, so that a dispatch of one of them is a part.
      const counts = new Map<string, number>();
      for (const row of rows) {
        const key = row['Shop-Auftrag'] ?? '';
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const id = [...counts].find(([, lines]) => lines > 1)?.[0];
      if (id === undefined) throw new Error('no order of more than one line was written');
      const first = rows.find((row) => row['Shop-Auftrag'] === id);
      expect(first).toMatchObject({ Auftragsart: 'HC', Status: 'Neu' });
      expect(first?.Menge).toMatch(/^\d+,\d{2}$/);
      const lines = (await sim.control.getRecord('singleOrder', id))?.orderedArticleLines;
      expect(counts.get(id)).toBe((lines as unknown[] | undefined)?.length);
      expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
        status: ORDER_STATUS.Transmitted,
      });
      expect(await patchesOf(sim, id)).toBe(1);

      const order = await openTransOrder(app, id, join(rig.folder, 'openTransOutbox'));
      expect(await openTransProblems(order)).toEqual([]);
      expect(/<ORDER_ID>([^<]+)<\/ORDER_ID>/.exec(order)?.[1]).toBe(id);
      const items = orderItems(order);
      expect(items).toHaveLength(counts.get(id) ?? 0);

      const salesId = `VK-${variant}-0815`;
      dropIn('opentrans', 'AB-1.xml', orderResponse({ orderId: id, salesId, lines: items }));
      await pass();
      expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
        salesId,
        status: ORDER_STATUS.Transmitted,
      });

      const [shipped] = items;
      if (shipped === undefined) throw new Error('the ORDER has no items');
      const notification = dispatchNotification({
        shipmentId: 'SH-1',
        trackingUrl: 'https://tracking.example.com/?nr=SH-1',
        lines: [{ ...shipped, orderId: id }],
      });
      dropIn('opentrans', 'LS-1.xml', notification);
      await pass();
      expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
        salesId,
        status: ORDER_STATUS.PartiallySent,
        trackingInfo: [
          { trackingCode: 'SH-1', trackingLink: 'https://tracking.example.com/?nr=SH-1' },
        ],
      });

      // The rest of the order in two parcels, one row each: one message, both parcels added.
      const parcel = (code: string) =>
        `${id};${salesId};Versendet;${code};https://tracking.example.com/?nr=${encodeURIComponent(code)}`;
      const answer = [HEADER, parcel('SH 2/7'), parcel('SH 3/7')];
      dropExport('Rueckmeldung-1.csv', answer);
      await pass();
      await pass();
      const link = (code: string) => ({
        trackingCode: code,
        trackingLink: `https://tracking.example.com/?nr=${encodeURIComponent(code)}`,
      });
      const sent = {
        salesId,
        status: ORDER_STATUS.Sent,
        trackingInfo: [
          { trackingCode: 'SH-1', trackingLink: 'https://tracking.example.com/?nr=SH-1' },
          link('SH 2/7'),
          link('SH 3/7'),
        ],
      };
      expect(await sim.control.getRecord('singleOrder', id)).toMatchObject(sent);
      // One acknowledgement, then one write for each answer: nothing acknowledged again.
      expect(await patchesOf(sim, id)).toBe(4);

      // The same export again under the ERP's next name, and the first answer once more: the
      // one a repeat, the other overtaken by the export; nothing is written, the order stays.
      dropExport('Rueckmeldung-2.csv', answer);
      dropIn(
        'opentrans',
        'AB-1-nochmal.xml',
        orderResponse({ orderId: id, salesId, lines: items }),
      );
      const again = await pass();
      expect(again.inbox?.files).toEqual([
        expect.objectContaining({ file: 'Rueckmeldung-2.csv', status: 'repeat', repeat: 1 }),
        expect.objectContaining({ file: 'AB-1-nochmal.xml', accepted: 0, overtaken: 1 }),
      ]);
      expect(await patchesOf(sim, id)).toBe(4);
      expect(await sim.control.getRecord('singleOrder', id)).toMatchObject(sent);
      // Every answer was taken: none was set aside.
      expect(existsSync(join(rig.inbox, '.error'))).toBe(false);
    });

    it('takes the ERP’s delivery export, one delivery over two rows, as one ERP order with both lines and parcels', async () => {
      const { sim, rig } = cycle();
      await pass();
      const [file] = rig.outboxFiles('singleOrder');
      const text = iconv.decode(
        readFileSync(join(rig.outbox, 'singleOrder', file ?? '')),
        'cp1252',
      );
      const orders = parse<Record<string, string>>(text, { columns: true, delimiter: ';' });
      const customer = orders.find((row) => row.Kundennummer !== '')?.Kundennummer;
      if (customer === undefined) throw new Error('no order of a patient with a customerId');
      const salesId = `LS-${variant}-0815`;
      const row = (line: string, quantity: number, code: string) =>
        `${salesId};${customer};03.03.2026 14:30;Erika Mustermann;Hauptstraße 5;50667;Köln;${line};${quantity};${quantity};${code};3;J`;
      const header =
        'Lieferschein;Kundennummer;Versanddatum;Name;Strasse;PLZ;Ort;Bezeichnung;Menge;Geliefert;Sendungsnummer;Therapie;Komplett';
      const delivery = [
        header,
        row('Saugkompresse steril', 2, 'PK-1'),
        row('Fixiervlies', 1, 'PK-2'),
      ];
      dropIn(
        'erpOrder',
        'Lieferungen-1.csv',
        iconv.encode(`${delivery.join('\r\n')}\r\n`, 'cp1252'),
      );
      const report = await pass();
      expect(report.inbox?.files).toEqual([
        expect.objectContaining({ file: 'Lieferungen-1.csv', status: 'accepted', accepted: 1 }),
      ]);
      const created = (await sim.control.requests()).filter(
        (r) => r.method === 'POST' && r.path === '/erpOrder',
      );
      expect(created).toHaveLength(1);
      const erpOrders = [...sim.state.store.list('demo', 'erpOrder', [{}], {})]
        .map((json) => JSON.parse(json) as Record<string, unknown>)
        .filter((record) => record.salesId === salesId);
      expect(erpOrders).toEqual([
        expect.objectContaining({
          erpOrderedArticleLines: [
            expect.objectContaining({ articleDescription: 'Saugkompresse steril', quantity: 2 }),
            expect.objectContaining({ articleDescription: 'Fixiervlies', quantity: 1 }),
          ],
          trackingInfo: [{ trackingCode: 'PK-1' }, { trackingCode: 'PK-2' }],
        }),
      ]);
      // Exported again: a repeat, no second POST or PUT.
      dropIn(
        'erpOrder',
        'Lieferungen-2.csv',
        iconv.encode(`${delivery.join('\r\n')}\r\n`, 'cp1252'),
      );
      await pass();
      const writes = (await sim.control.requests()).filter(
        (r) => r.method !== 'GET' && r.path.startsWith('/erpOrder'),
      );
      expect(writes).toHaveLength(1);
    });
  },
);

describe('bad answers from the ERP, through the daemon', () => {
  const { cycle, pass, dropIn, dropExport } = germanErpCycle('B');

  it('sets aside a schema-invalid openTRANS file, an unknown order, a wrong column count and a wrong encoding, each with a report; the rest goes on', async () => {
    const { sim, rig } = cycle();
    await pass();
    const [file] = rig.outboxFiles('singleOrder');
    const text = iconv.decode(readFileSync(join(rig.outbox, 'singleOrder', file ?? '')), 'cp1252');
    const [row] = parse<Record<string, string>>(text, { columns: true, delimiter: ';' });
    const id = row?.['Shop-Auftrag'] ?? '';

    const invalid = dispatchNotification({
      shipmentId: 'SH-1',
      lines: [{ orderId: id, lineItemId: 'line-1', quantity: 1 }],
    }).replace('<QUANTITY>1</QUANTITY>', '<QUANTITY>eins</QUANTITY>');
    dropIn('opentrans', 'LS-ungueltig.xml', invalid);
    dropExport('unbekannt.csv', [HEADER, '00000000-0000-4000-8000-000000000000;VK-1;Versendet;;']);
    dropExport('spalten.csv', [HEADER, 'x;VK-2;Versendet']);
    dropIn('orderStatus', 'utf8.csv', `${HEADER}\r\nx;VK-3;Übermittelt;;\r\n`);
    // A good export beside them: nothing of it is lost.
    dropExport('gut.csv', [HEADER, `${id};VK-2026-0815;Uebermittelt;;`]);
    await pass();

    const errors = join(rig.inbox, '.error');
    expect(readdirSync(join(errors, 'orderStatus')).sort()).toEqual([
      'spalten.csv',
      'spalten.csv.error.json',
      'unbekannt.csv',
      'unbekannt.csv.error.json',
      'utf8.csv',
      'utf8.csv.error.json',
    ]);
    expect(readdirSync(join(errors, 'opentrans')).sort()).toEqual([
      'LS-ungueltig.xml',
      'LS-ungueltig.xml.error.json',
    ]);
    const report = (folder: string, name: string) =>
      JSON.parse(readFileSync(join(errors, folder, `${name}.error.json`), 'utf8')) as {
        file: string;
        reason: string;
        problems: { line?: number; column?: string; path?: string; message: string }[];
      };
    expect(report('opentrans', 'LS-ungueltig.xml')).toMatchObject({
      file: 'LS-ungueltig.xml',
      reason: 'not valid against the openTRANS 2.1 schema',
      problems: [
        {
          line: invalid.slice(0, invalid.indexOf('<QUANTITY>eins')).split('\n').length,
          path: 'DISPATCHNOTIFICATION/DISPATCHNOTIFICATION_ITEM_LIST/DISPATCHNOTIFICATION_ITEM/QUANTITY',
          message: expect.stringMatching(/'eins' is not a valid value/) as string,
        },
      ],
    });
    expect(report('orderStatus', 'unbekannt.csv')).toMatchObject({
      file: 'unbekannt.csv',
      reason: 'not a readable orderStatus file in its mapping: no row of the file could be taken',
      problems: [
        {
          line: 2,
          column: 'Shop-Auftrag',
          message: expect.stringMatching(
            /names no single or direct order the daemon knows/,
          ) as string,
        },
      ],
    });
    expect(report('orderStatus', 'spalten.csv')).toMatchObject({
      file: 'spalten.csv',
      reason: 'not a readable orderStatus file in its mapping: no row of the file could be taken',
      problems: [{ line: 2, message: 'the row has 3 columns, the header has 5' }],
    });
    expect(report('orderStatus', 'utf8.csv')).toMatchObject({
      file: 'utf8.csv',
      reason: expect.stringMatching(/^not a readable orderStatus file in its mapping: /) as string,
      problems: [
        { line: 2, column: '8', message: expect.stringMatching(/^the file is UTF-8/) as string },
      ],
    });
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      salesId: 'VK-2026-0815',
    });
    // The daemon goes on: the next pass pulls as any, with nothing left in the inbox.
    const next = await pass();
    expect(next.pulls.length).toBeGreaterThan(0);
    expect(next.inbox?.files).toEqual([]);
  });
});
