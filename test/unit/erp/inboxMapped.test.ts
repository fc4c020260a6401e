import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboundMappingSpec } from '../../../src/erp/mapping/index.js';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type InboxOptions,
} from '../../../src/erp/inbound/index.js';
import { type KnownOrder } from '../../../src/erp/messages/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';

/** A German ERP's status export: `;`, Windows-1252, its own column names and status codes. */
const STATUS_MAPPING: InboundMappingSpec = {
  format: 'csv',
  encoding: 'windows-1252',
  delimiter: ';',
  fields: {
    id: { from: 'Shop-Auftrag' },
    salesId: { from: 'Belegnummer' },
    status: { from: 'Status', table: 'auftragsstatus' },
    'trackingInfo.0.trackingCode': { from: 'Sendungsnummer' },
  },
};
const TABLES = { auftragsstatus: { 1: 'Offen', 4: 'Versendet', 10: 'Teillieferung' } };

/** The orders the daemon's mirror holds: o-1, o-2 single, d-1 direct. */
const ORDERS: Record<string, KnownOrder> = {
  'o-1': { orderType: 'single', record: { _id: 'o-1', salesId: 'VK-1' } },
  'o-2': { orderType: 'single', record: { _id: 'o-2' } },
  'd-1': { orderType: 'direct', record: { _id: 'd-1' } },
};

interface Report {
  file: string;
  kind: string;
  reason: string;
  problems: { line?: number; column?: string; element?: string; path?: string; message: string }[];
}

describe('inbox: files in the ERP layout (erp.file.inboxMapping)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let recorder: AcceptRecorder;
  const clock = new FakeClock('2026-03-03T15:00:00.000Z');
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    recorder = new AcceptRecorder();
  });
  afterEach(() => cleanup());

  async function scan(
    kind: string,
    name: string,
    content: string | Buffer,
    extra: Partial<InboxOptions> = {},
  ) {
    const inbox = createInbox(
      {
        ...DEFAULT_INBOX_OPTIONS,
        inbox: dir,
        minFileAgeMs: 0,
        mapping: { orderStatus: STATUS_MAPPING },
        valueTables: TABLES,
        ...extra,
      },
      {
        clock,
        kinds: KINDS,
        accept: recorder.accept,
        openTransOrder: (id) => ORDERS[id],
        ordersBySalesId: (salesId) =>
          Object.values(ORDERS).filter((order) => order.record.salesId === salesId),
      },
    );
    await mkdir(join(dir, kind), { recursive: true });
    await writeFile(join(dir, kind, name), content);
    await inbox.scanOnce();
    return inbox.scanOnce();
  }
  const report = async (kind: string, name: string) =>
    JSON.parse(await readFile(join(dir, '.error', kind, `${name}.error.json`), 'utf8')) as Report;
  const cp1252 = (lines: string[]) => iconv.encode(`${lines.join('\r\n')}\r\n`, 'windows-1252');

  it('hands over the good rows of an export of several orders and reports the bad ones by line and column', async () => {
    const file = cp1252([
      'Shop-Auftrag;Belegnummer;Status;Sendungsnummer;Bemerkung',
      'o-1;VK-1;Versendet;SH-1;Größe M',
      'o-2;VK-2;Storniert;;',
      'o-9;VK-9;Offen;;',
      'o-2;VK-2;Offen;',
      ';VK-1;Teillieferung;;über Nacht',
      'd-1;VK-3;Versendet;SH-3;',
    ]);
    const result = await scan('orderStatus', 'status.csv', file);
    expect(result.files).toEqual([
      expect.objectContaining({ status: 'partial', accepted: 2, repeat: 0 }),
    ]);
    expect(recorder.messages.map((m) => [m.name, m.body])).toEqual([
      [
        'status.csv#2',
        {
          orderType: 'single',
          id: 'o-1',
          salesId: 'VK-1',
          status: 4,
          trackingInfo: [{ trackingCode: 'SH-1' }],
        },
      ],
      ['status.csv#6', { orderType: 'single', salesId: 'VK-1', status: 10 }],
    ]);
    const { problems } = await report('orderStatus', 'status.csv');
    expect(problems).toEqual([
      {
        line: 3,
        column: 'Status',
        path: 'status',
        message:
          '"Storniert" is not in table auftragsstatus (its values: Offen, Versendet, Teillieferung)',
      },
      {
        line: 4,
        column: 'Shop-Auftrag',
        path: 'id',
        message:
          'id o-9 names no single or direct order the daemon knows; check the column, or pull the order first',
      },
      { line: 5, message: 'the row has 4 columns, the header has 5' },
      {
        line: 7,
        column: 'Sendungsnummer',
        path: 'trackingInfo',
        message: expect.stringMatching(
          /^id d-1 is a direct order, which carries no trackingInfo/,
        ) as string,
      },
    ]);
    expect(await readdir(join(dir, '.archive', 'orderStatus', '2026-03-03'))).toEqual([
      'status.csv',
    ]);
  });

  it('with csvAllOrNothing refuses the whole file on one bad row', async () => {
    const file = cp1252([
      'Shop-Auftrag;Belegnummer;Status;Sendungsnummer',
      'o-1;VK-1;Versendet;SH-1',
      'o-9;VK-9;Offen;',
    ]);
    const result = await scan('orderStatus', 'status.csv', file, { csvAllOrNothing: true });
    expect(result.counts.rejected).toBe(1);
    expect(recorder.messages).toEqual([]);
    expect((await report('orderStatus', 'status.csv')).problems).toEqual([
      expect.objectContaining({ line: 3, column: 'Shop-Auftrag', path: 'id' }),
    ]);
  });

  it('refuses a file in another encoding than its mapping says, naming line and column', async () => {
    const utf8 = Buffer.from(
      'Shop-Auftrag;Belegnummer;Status;Sendungsnummer\no-1;VK-1;Versendet;Größe\n',
    );
    const result = await scan('orderStatus', 'utf8.csv', utf8);
    expect(result.counts.rejected).toBe(1);
    const found = await report('orderStatus', 'utf8.csv');
    expect(found).toMatchObject({
      file: 'utf8.csv',
      kind: 'orderStatus',
      reason:
        'not a readable orderStatus file in its mapping: the file is not in the encoding its mapping says',
      problems: [
        { line: 2, column: '22', message: expect.stringMatching(/^the file is UTF-8/) as string },
      ],
    });
    const broken = Buffer.concat([
      Buffer.from('Shop-Auftrag;Belegnummer\no-1;VK'),
      Buffer.from([0x81]),
    ]);
    await scan('orderStatus', 'broken.csv', broken, {
      mapping: { orderStatus: { ...STATUS_MAPPING, fields: { id: { from: 'Shop-Auftrag' } } } },
    });
    expect((await report('orderStatus', 'broken.csv')).problems).toEqual([
      {
        line: 2,
        column: '7',
        message: "byte 0x81 is no Windows-1252 character; check the ERP's export encoding",
      },
    ]);
    expect(recorder.messages).toEqual([]);
  });

  it('refuses a header that lacks a mapped column, with the nearest one', async () => {
    const result = await scan(
      'orderStatus',
      'status.csv',
      cp1252(['Shop-Auftrag;Belegnr;Status;Sendungsnummer', 'o-1;VK-1;Offen;']),
    );
    expect(result.counts.rejected).toBe(1);
    expect((await report('orderStatus', 'status.csv')).problems).toEqual([
      {
        line: 1,
        path: 'salesId',
        message:
          'the header has no column "Belegnummer"; its columns: Shop-Auftrag, Belegnr, Status, Sendungsnummer',
      },
    ]);
  });

  it('reads a file without a header by column numbers', async () => {
    const mapping: InboundMappingSpec = {
      format: 'csv',
      header: false,
      delimiter: ';',
      fields: { salesId: { from: 2 }, status: { from: 1, table: 'auftragsstatus' } },
    };
    await scan('orderStatus', 'ohne-kopf.csv', 'Versendet;VK-1\r\nVersendet;VK-1\r\n', {
      mapping: { orderStatus: mapping },
    });
    // Both rows are the same order's: one message.
    expect(recorder.messages.map((m) => [m.name, m.body])).toEqual([
      ['ohne-kopf.csv#1,2', { orderType: 'single', salesId: 'VK-1', status: 4 }],
    ]);
  });

  it('reads an XML export: one message per record element, lines nested, attributes by @', async () => {
    const mapping: InboundMappingSpec = {
      format: 'xml',
      records: 'Lieferung',
      lines: 'Positionen/Position',
      fields: {
        salesId: { from: 'Kopf/Beleg' },
        patientCustomerId: { from: 'Kopf/Kunde' },
        outboundDate: { from: 'Kopf/@versandt', date: 'dd.MM.yyyy HH:mm' },
        'deliveryAddress.city': { from: 'Kopf/Ort' },
        'trackingInfo.0.trackingCode': { from: 'Kopf/Sendung' },
        'erpOrderedArticleLines.articleId': { from: '@artikel' },
        'erpOrderedArticleLines.quantity': { from: 'Menge' },
      },
    };
    const xml = `<?xml version="1.0" encoding="ISO-8859-1"?>
<Lieferungen>
  <Lieferung>
    <Kopf versandt="04.03.2026 14:30"><Beleg>VK-1</Beleg><Kunde>K-1</Kunde><Ort>Köln</Ort><Sendung>SH-1</Sendung></Kopf>
    <Positionen>
      <Position artikel="a-1"><Menge>2,5</Menge></Position>
      <Position artikel="a-2"><Menge>1</Menge></Position>
    </Positionen>
  </Lieferung>
  <Lieferung>
    <Kopf versandt="gestern"><Beleg>VK-2</Beleg><Kunde>K-2</Kunde><Ort>Bonn</Ort></Kopf>
    <Positionen><Position artikel="a-3"><Menge>3</Menge></Position></Positionen>
  </Lieferung>
</Lieferungen>
`;
    const result = await scan('erpOrder', 'lieferungen.xml', iconv.encode(xml, 'latin1'), {
      mapping: { erpOrder: mapping },
      csv: { ...DEFAULT_INBOX_OPTIONS.csv, decimalComma: true },
    });
    expect(result.files).toEqual([expect.objectContaining({ status: 'partial', accepted: 1 })]);
    expect(recorder.messages.map((m) => [m.name, m.body])).toEqual([
      [
        'lieferungen.xml#1',
        {
          salesId: 'VK-1',
          patientCustomerId: 'K-1',
          outboundDate: '2026-03-04T13:30:00.000Z',
          deliveryAddress: { city: 'Köln' },
          trackingInfo: [{ trackingCode: 'SH-1' }],
          erpOrderedArticleLines: [
            { articleId: 'a-1', quantity: 2.5 },
            { articleId: 'a-2', quantity: 1 },
          ],
        },
      ],
    ]);
    expect((await report('erpOrder', 'lieferungen.xml')).problems).toEqual([
      {
        line: 11,
        element: 'Lieferungen/Lieferung[2]/Kopf',
        path: 'outboundDate',
        message: '"gestern" is not a date in the pattern dd.MM.yyyy HH:mm',
      },
    ]);
  });

  it('refuses an XML file with a DOCTYPE unread (no entity is expanded)', async () => {
    const mapping: InboundMappingSpec = {
      format: 'xml',
      records: 'Auftrag',
      fields: { salesId: { from: 'Beleg' } },
    };
    const xml =
      '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<r><Auftrag><Beleg>&x;</Beleg></Auftrag></r>\n';
    const result = await scan('orderStatus', 'xxe.xml', xml, { mapping: { orderStatus: mapping } });
    expect(result.counts.rejected).toBe(1);
    expect(recorder.messages).toEqual([]);
    const found = await report('orderStatus', 'xxe.xml');
    expect(found.reason).toBe(
      'not a readable orderStatus file in its mapping: not readable as XML',
    );
    expect(found.problems[0]?.message).toMatch(/^the file has a DOCTYPE/);
  });

  it('reads no CSV in a kind whose mapping is XML: the mapping replaces the default CSV', async () => {
    const mapping: InboundMappingSpec = {
      format: 'xml',
      records: 'Patient',
      fields: { customerId: { from: 'Nr' } },
    };
    const result = await scan('patient', 'patients.csv', 'customerId\nK-1\n', {
      mapping: { patient: mapping },
    });
    expect(result.files).toEqual([
      expect.objectContaining({
        status: 'rejected',
        reason:
          'file "patients.csv" does not end in .json or .xml, so it is not read as a patient message',
      }),
    ]);
  });
});
