import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
  type FileAdapterOptions,
} from '../../../src/erp/outbound/file/index.js';
import { csvProfile } from '../../../src/erp/formats/index.js';
import type { OutboundMappingSpec } from '../../../src/erp/mapping/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

/** Order lines with the values binary floats and exponents used to alter. */
const order = (id: string, lines: Record<string, unknown>[]): OutboundRecord =>
  singleOrder({
    _id: id,
    orderedArticleLines: lines.map((line, n) => ({ _id: `l-${n}`, ...line })),
  });

const PRICES: OutboundMappingSpec = {
  fields: {
    Auftrag: { from: '_id' },
    Menge: { from: 'orderedArticleLines.quantity', decimals: 2 },
    Preis: { from: 'orderedArticleLines.price', decimals: 2 },
    Stueck: { from: 'orderedArticleLines.quantity' },
  },
};

describe('file adapter: values are never altered on the way out', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  async function deliver(records: OutboundRecord[], options: Partial<FileAdapterOptions>) {
    const adapter = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, ...options },
      { clock: new FakeClock() },
    );
    return adapter.deliver(records, 1);
  }
  const csv = async () =>
    iconv.decode(
      await readFile(join(dir, 'singleOrder', 'singleOrder_0000000001.csv')),
      'windows-1252',
    );

  it('rounds decimals half up on the digits and writes plain notation (de profile)', async () => {
    const outcomes = await deliver(
      [
        order('o-1', [
          { quantity: 2.675, price: '1.005' },
          { quantity: 1e21, price: '12345678901234567890.99' },
          { quantity: -0.125, price: '-2.675' },
          { quantity: 1e-7, price: '0.004' },
        ]),
      ],
      { format: 'csv', csv: csvProfile('de'), mapping: { singleOrder: PRICES } },
    );
    expect(outcomes).toEqual([{ status: 'delivered' }]);
    expect(await csv()).toBe(
      [
        'Auftrag;Menge;Preis;Stueck',
        'o-1;2,68;1,01;2,675',
        'o-1;1000000000000000000000,00;12345678901234567890,99;1000000000000000000000',
        'o-1;-0,13;-2,68;-0,125',
        'o-1;0,00;0,00;0,0000001',
        '',
      ].join('\r\n'),
    );
  });

  it('writes numbers in plain notation in the built-in CSV and XML layouts', async () => {
    const record = order('o-2', [{ quantity: 1e21 }, { quantity: 1.5e-7 }]);
    await deliver([record], {
      format: 'csv',
      csv: {
        ...csvProfile('de'),
        columns: { singleOrder: ['_id', 'orderedArticleLines.quantity'] },
      },
    });
    expect(await csv()).toBe(
      '_id;orderedArticleLines.quantity\r\no-2;1000000000000000000000\r\no-2;0,00000015\r\n',
    );
    await deliver([record], { format: 'xml' });
    const xml = await readFile(
      join(dir, 'singleOrder', `o-2_${record.version.replaceAll(':', '-')}.xml`),
      'utf8',
    );
    expect(xml).toContain('<quantity>1000000000000000000000</quantity>');
    expect(xml).toContain('<quantity>0.00000015</quantity>');
  });

  it('refuses a record whose value is wider than its width, never cutting it; the others go on', async () => {
    const narrow: OutboundMappingSpec = {
      fields: {
        Auftrag: { from: '_id' },
        Menge: { from: 'orderedArticleLines.quantity', width: 4, align: 'right', pad: '0' },
      },
    };
    const fits = order('o-3', [{ quantity: 25 }]);
    const wide = order('o-4', [{ quantity: 10000 }]);
    const outcomes = await deliver([fits, wide], {
      format: 'csv',
      csv: csvProfile('de'),
      mapping: { singleOrder: narrow },
    });
    expect(outcomes).toEqual([
      { status: 'delivered' },
      {
        status: 'rejected',
        reason: expect.stringMatching(
          /^Menge: "10000" has 5 characters, wider than its width 4/,
        ) as unknown,
      },
    ]);
    expect(await csv()).toBe('Auftrag;Menge\r\no-3;0025\r\n');
  });

  it('refuses a record file (json) with a value wider than its width', async () => {
    const outcomes = await deliver([order('o-5', [{ quantity: 12345 }])], {
      format: 'json',
      mapping: {
        singleOrder: { fields: { Menge: { from: 'orderedArticleLines.quantity', width: 3 } } },
      },
    });
    expect(outcomes).toEqual([
      {
        status: 'rejected',
        reason: expect.stringContaining(
          '"12345" has 5 characters, wider than its width 3',
        ) as unknown,
      },
    ]);
  });
});
