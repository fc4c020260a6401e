import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../src/erp/adapter.js';
import { createFileAdapter, DEFAULT_FILE_ADAPTER_OPTIONS } from '../../src/erp/file/index.js';
import { OUTBOX_EXAMPLES } from '../docs/outboxExamples.js';
import { FakeClock } from '../support/fakeClock.js';
import { singleOrder, tempFolder } from './fileDropSupport.js';
import { openTransProblems } from './openTransSchema.js';

describe('openTRANS ORDER against the schema of the elements we write', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  async function write(item: OutboundRecord): Promise<string> {
    const options = { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, format: 'xml' as const };
    const adapter = await createFileAdapter(
      { ...options, openTrans: true },
      { clock: new FakeClock() },
    );
    await adapter.deliver([item], 1);
    const folder = join(dir, item.resource);
    const [name] = (await readdir(folder)).filter((n) => n.endsWith('.xml'));
    return readFile(join(folder, name ?? ''), 'utf8');
  }

  it('holds for the README example', async () => {
    const folder = join(OUTBOX_EXAMPLES, 'opentrans', 'singleOrder');
    const [name] = await readdir(folder);
    expect(openTransProblems(await readFile(join(folder, name ?? ''), 'utf8'))).toEqual([]);
  });

  it('holds for orders with and without delivery date, customer number and known units', async () => {
    const orders = [
      singleOrder({ deliveryDate: '2026-01-20' }),
      singleOrder({ patientCustomerId: undefined, deliveryDate: '2026-01-20T00:00:00.000Z' }),
      singleOrder({
        orderedArticleLines: [
          { _id: 'l-1', quantity: 3, unit: 'Rolle groß' },
          { _id: 'l-2', quantity: 1 },
          { _id: 'l-3', quantity: 2, unit: 'Flasche' },
        ],
      }),
    ];
    for (const order of orders) expect(openTransProblems(await write(order))).toEqual([]);
  });

  it('writes UN/ECE unit codes, keeps an unknown unit as a remark, and names the parties', async () => {
    const text = await write(
      singleOrder({
        deliveryDate: '2026-01-20',
        orderedArticleLines: [
          { _id: 'l-1', quantity: 3, unit: 'Stück' },
          { _id: 'l-2', quantity: 1, unit: 'Rolle groß' },
        ],
      }),
    );
    expect(text).toContain('<bmecat:ORDER_UNIT>C62</bmecat:ORDER_UNIT>');
    expect(text).toContain('<REMARKS type="general">unit: Rolle groß</REMARKS>');
    expect(text).toContain('<DELIVERY_START_DATE>2026-01-20</DELIVERY_START_DATE>');
    expect(text).toContain(
      '<bmecat:BUYER_IDREF type="supplier_specific">homecare-platform</bmecat:BUYER_IDREF>',
    );
    expect(text).toContain('<DELIVERY_IDREF type="supplier_specific">K-10042</DELIVERY_IDREF>');
  });

  it('catches what the writer wrote before: free-text units, no parties reference', async () => {
    const text = await write(singleOrder());
    const withoutReference = text.replace(
      /<ORDER_PARTIES_REFERENCE>[\s\S]*<\/ORDER_PARTIES_REFERENCE>/,
      '',
    );
    expect(openTransProblems(withoutReference)).toContain(
      'ORDER/ORDER_HEADER/ORDER_INFO: ORDER_PARTIES_REFERENCE required',
    );
    const freeUnit = text.replace('<bmecat:ORDER_UNIT>XPK<', '<bmecat:ORDER_UNIT>Packung<');
    expect(openTransProblems(freeUnit)).toEqual([
      'ORDER/ORDER_ITEM_LIST/ORDER_ITEM/bmecat:ORDER_UNIT: text "Packung" not allowed',
    ]);
  });
});
