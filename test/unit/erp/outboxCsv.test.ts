import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import { DEFAULT_CSV_OPTIONS, type CsvOptions } from '../../../src/erp/formats/index.js';
import { resourceColumns } from '../../../src/erp/mapping/sources.js';
import { batchBaseName } from '../../../src/erp/outbound/file/names.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

const patient: OutboundRecord = {
  resource: 'patient',
  id: 'p-1',
  version: '2026-01-15T08:00:00.000Z',
  record: {
    _id: 'p-1',
    timestamp: '2026-01-15T08:00:00.000Z',
    lastName: 'Müller; "Sen."',
    customerId: 'K-1',
    birthday: '1950-03-07',
    calorieDemand: 1850.5,
    ivTherapy: false,
    comment: null,
    deliveryAddress: { city: 'Köln', postalCode: '50667' },
    careGivers: [{ lastName: 'left out by default' }],
  },
};

describe('file adapter: csv', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  async function write(records: OutboundRecord[], csv: Partial<CsvOptions>): Promise<Buffer> {
    const options = {
      ...DEFAULT_FILE_ADAPTER_OPTIONS,
      outbox: dir,
      format: 'csv' as const,
      csv: { ...DEFAULT_CSV_OPTIONS, ...csv },
    };
    const adapter = await createFileAdapter(options, { clock: new FakeClock() });
    const outcomes = await adapter.deliver(records, 1);
    expect(outcomes.every((o) => o.status === 'delivered')).toBe(true);
    const resource = records[0]?.resource ?? 'patient';
    return readFile(join(dir, resource, `${resource}_0000000001.csv`));
  }

  it('by default writes every field of the schema, nested objects as dot paths, and reads back', async () => {
    const text = (await write([patient], {})).toString('utf8');
    const [row, ...rest] = parse<Record<string, string>>(text, { columns: true });
    expect(rest).toEqual([]);
    expect(Object.keys(row ?? {})).toEqual(resourceColumns('patient').map((c) => c.path));
    expect(row).toMatchObject({
      _id: 'p-1',
      timestamp: '2026-01-15T08:00:00.000Z',
      lastName: 'Müller; "Sen."',
      customerId: 'K-1',
      birthday: '1950-03-07',
      calorieDemand: '1850.5',
      ivTherapy: 'false',
      comment: '',
      'deliveryAddress.city': 'Köln',
      'deliveryAddress.postalCode': '50667',
    });
  });

  it('follows German ERP habits: ;, BOM, decimal comma, de dates, CRLF', async () => {
    const csv: Partial<CsvOptions> = {
      delimiter: ';',
      encoding: 'utf-8-bom',
      decimalComma: true,
      dateFormat: 'de',
      lineEnding: 'crlf',
    };
    const bytes = await write([patient], csv);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')).toHaveLength(3);
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
    const rows = parse(text, {
      bom: true,
      delimiter: ';',
      columns: true,
      record_delimiter: '\r\n',
    });
    expect(rows).toEqual([
      expect.objectContaining({
        lastName: 'Müller; "Sen."',
        birthday: '07.03.1950',
        // 08:00 UTC is 09:00 in Berlin in January.
        timestamp: '15.01.2026 09:00:00',
        calorieDemand: '1850,5',
      }),
    ]);
  });

  it('writes windows-1252 when asked, with chosen columns and every cell quoted', async () => {
    const columns = { patient: ['customerId', 'lastName', 'deliveryAddress.city'] };
    const bytes = await write([patient], { encoding: 'windows-1252', columns, quoting: 'all' });
    expect(bytes.includes(Buffer.from('Köln', 'utf8'))).toBe(false);
    const text = iconv.decode(bytes, 'windows-1252');
    expect(text.split('\n')[1]).toBe('"K-1","Müller; ""Sen.""","Köln"');
    expect(parse(text, { columns: true })).toEqual([
      { customerId: 'K-1', lastName: 'Müller; "Sen."', 'deliveryAddress.city': 'Köln' },
    ]);
  });

  it('writes an order as one row per order line with the order columns repeated', async () => {
    const text = (await write([singleOrder()], { delimiter: ';', header: true })).toString();
    const rows = parse<Record<string, string>>(text, { delimiter: ';', columns: true });
    expect(rows.map((r) => [r._id, r.patientCustomerId, r['deliveryAddress.city']])).toEqual([
      ['6f1c2b9e-2d3a-4c55-9a1e-0f7d2b3c4d5e', 'K-10042', 'Köln'],
      ['6f1c2b9e-2d3a-4c55-9a1e-0f7d2b3c4d5e', 'K-10042', 'Köln'],
    ]);
    expect(rows.map((r) => r['orderedArticleLines.articleCustomerNumber'])).toEqual([
      '100-200',
      '100-300',
    ]);
    expect(rows.map((r) => r['orderedArticleLines.quantity'])).toEqual(['2.5', '10']);
  });

  it('leaves the header out when asked', async () => {
    const columns = { patient: ['customerId', 'birthday'] };
    const text = (await write([patient], { header: false, columns })).toString();
    expect(parse(text)).toEqual([['K-1', '1950-03-07']]);
  });
});

describe('file adapter: csv an ERP imports as it is', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  async function rowsOf(records: OutboundRecord[], batch: number, csv: Partial<CsvOptions>) {
    const options = {
      ...DEFAULT_FILE_ADAPTER_OPTIONS,
      outbox: dir,
      format: 'csv' as const,
      csv: { ...DEFAULT_CSV_OPTIONS, delimiter: ';', ...csv },
    };
    const adapter = await createFileAdapter(options, { clock: new FakeClock() });
    await adapter.deliver(records, batch);
    const resource = records[0]?.resource ?? 'singleOrder';
    const text = (
      await readFile(join(dir, resource, `${batchBaseName(resource, batch)}.csv`))
    ).toString();
    return {
      header: text.split('\n')[0],
      rows: parse<Record<string, string>>(text, { delimiter: ';', columns: true }),
    };
  }

  it('gives every file of a resource the same columns, whatever its records hold', async () => {
    const bare = singleOrder({ deliveryAddress: null, orderedArticleLines: [] });
    const full = singleOrder({ _id: 'o-2', annotation: 'Bitte klingeln', isGroupOrder: false });
    const first = await rowsOf([bare], 1, {});
    const second = await rowsOf([full], 2, {});
    expect(first.header).toBe(second.header);
    expect(first.header?.split(';')).toContain('orderedArticleLines.price');
    expect(first.header?.split(';')).toContain('patient.lastName');
  });

  it('writes decimals the platform sends as text with the decimal comma, by field, not by look', async () => {
    const order = singleOrder({
      orderedArticleLines: [
        { _id: 'l-1', articleCustomerNumber: '100.2001', price: '25.47', quantity: 2.5 },
      ],
    });
    const { rows } = await rowsOf([order], 1, { decimalComma: true });
    expect(rows[0]).toMatchObject({
      'orderedArticleLines.price': '25,47',
      'orderedArticleLines.quantity': '2,5',
      // An article number is text, even when it looks like a decimal.
      'orderedArticleLines.articleCustomerNumber': '100.2001',
    });
  });

  it('neutralises text that a spreadsheet would run as a formula, and keeps negative numbers', async () => {
    const order = singleOrder({
      annotation: '=HYPERLINK("http://evil.example","klick")',
      deliveryInformation: '+49 221 4711',
      salesId: '-3',
      regionId: '@SUM(A1)',
      status: -3,
      orderedArticleLines: [{ _id: 'l-1', price: '-3.50', quantity: -3, unit: '-' }],
    });
    const { rows } = await rowsOf([order], 1, { decimalComma: true });
    expect(rows[0]).toMatchObject({
      annotation: `'=HYPERLINK("http://evil.example","klick")`,
      deliveryInformation: "'+49 221 4711",
      salesId: "'-3",
      regionId: "'@SUM(A1)",
      status: '-3',
      'orderedArticleLines.price': '-3,50',
      'orderedArticleLines.quantity': '-3',
      'orderedArticleLines.unit': "'-",
    });
  });
});
