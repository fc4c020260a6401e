import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryOutcome, OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
  type FileAdapterOptions,
} from '../../../src/erp/outbound/file/index.js';
import { UNIT_CODES } from '../../../src/erp/formats/openTrans/units.js';
import { OUTBOX_EXAMPLES } from '../../support/docs/outboxExamples.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';
import { OFFICIAL_SCHEMAS, openTransProblems } from '../../support/erp/openTransSchema.js';

const XSD = fileURLToPath(new URL('../../../src/erp/formats/openTrans/xsd/', import.meta.url));

const directOrder = (overrides: Record<string, unknown> = {}): OutboundRecord => ({
  ...singleOrder(overrides),
  resource: 'directOrder',
});

describe('openTRANS ORDER against the official openTRANS 2.1 schema', () => {
  let root: string;
  let dir: string;
  let writes = 0;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir: root, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  /** Each order into an outbox of its own: several versions of one order id are written. */
  async function deliver(
    item: OutboundRecord,
    valueTables: FileAdapterOptions['valueTables'] = {},
  ): Promise<DeliveryOutcome | undefined> {
    writes += 1;
    dir = join(root, String(writes));
    const options = {
      ...DEFAULT_FILE_ADAPTER_OPTIONS,
      outbox: dir,
      format: 'xml' as const,
      valueTables,
    };
    const adapter = await createFileAdapter(
      { ...options, openTrans: true },
      { clock: new FakeClock() },
    );
    const [outcome] = await adapter.deliver([item], 1);
    await adapter.close();
    return outcome;
  }

  async function written(resource: string): Promise<string[]> {
    const folder = join(dir, resource);
    const names = (await readdir(folder).catch(() => [])).filter((n) => n.endsWith('.xml'));
    return names;
  }

  async function write(item: OutboundRecord): Promise<string> {
    expect(await deliver(item)).toEqual({ status: 'delivered' });
    const [name] = await written(item.resource);
    return readFile(join(dir, item.resource, name ?? ''), 'utf8');
  }

  it('ships the official schemas unchanged, licence headers included', async () => {
    const names = (await readdir(XSD)).sort();
    expect(names).toEqual(Object.keys(OFFICIAL_SCHEMAS).sort());
    for (const name of names) {
      const bytes = await readFile(join(XSD, name));
      const hash = createHash('sha256').update(bytes).digest('hex');
      expect(hash, `${name} differs from the published file`).toBe(OFFICIAL_SCHEMAS[name]);
    }
    const openTrans = await readFile(join(XSD, 'opentrans_2_1.xsd'), 'utf8');
    expect(openTrans).toContain('Fraunhofer IAO und Universität Duisburg-Essen BLI gewähren');
  });

  it('holds for the README example', async () => {
    const folder = join(OUTBOX_EXAMPLES, 'opentrans', 'singleOrder');
    const [name] = await readdir(folder);
    expect(await openTransProblems(await readFile(join(folder, name ?? ''), 'utf8'))).toEqual([]);
  });

  it('holds for single and direct orders of every shape the platform sends', async () => {
    const long = 'Seniorenresidenz Am Rheinufer, Haus B, Wohnbereich Sonnenschein';
    const orders = [
      singleOrder({ deliveryDate: '2026-01-20' }),
      singleOrder({ patientCustomerId: undefined, deliveryDate: '2026-01-20T00:00:00.000Z' }),
      singleOrder({ deliveryDate: 'bald', creationDate: undefined, createdAt: '2026-01-14 09:30' }),
      singleOrder({
        orderedArticleLines: [
          { _id: 'l-1', quantity: 3, unit: 'Rolle groß' },
          { articleId: 'art-2', quantity: 0.0000001 },
          { _id: 'l-3', quantity: 2, unit: 'Flasche', archived: true },
          { _id: 'l-4', unit: 'Stk.' },
        ],
      }),
      singleOrder({ deliveryAddress: { name: long, address: long, city: 'Köln' } }),
      singleOrder({ deliveryAddress: null }),
      directOrder(),
    ];
    for (const order of orders) expect(await openTransProblems(await write(order))).toEqual([]);
  });

  it('writes every unit of the table as a BMEcat code of the schema, C62 by default', async () => {
    const units = Object.keys(UNIT_CODES);
    const text = await write(
      singleOrder({
        orderedArticleLines: [
          ...units.map((unit, n) => ({ _id: `l-${n}`, quantity: 1, unit })),
          { _id: 'l-none', quantity: 1 },
        ],
      }),
    );
    expect(await openTransProblems(text)).toEqual([]);
    const codes = [...text.matchAll(/<bmecat:ORDER_UNIT>([^<]*)</g)].map((m) => m[1]);
    expect(codes).toEqual([...units.map((unit) => UNIT_CODES[unit]), 'C62']);
    expect(codes.filter((code) => code?.startsWith('X'))).toEqual([]);
  });

  it("takes the config's openTransUnits table before its own", async () => {
    const order = singleOrder({
      orderedArticleLines: [
        { _id: 'l-1', quantity: 1, unit: 'Rolle groß' },
        { _id: 'l-2', quantity: 1, unit: 'Flasche' },
        { _id: 'l-3', quantity: 1, unit: 'Stück' },
      ],
    });
    expect(
      await deliver(order, { openTransUnits: { 'ROLLE GROß ': 'RO', Flasche: 'PK' } }),
    ).toEqual({ status: 'delivered' });
    const [name] = await written(order.resource);
    const text = await readFile(join(dir, order.resource, name ?? ''), 'utf8');
    expect(await openTransProblems(text)).toEqual([]);
    const codes = [...text.matchAll(/<bmecat:ORDER_UNIT>([^<]*)</g)].map((m) => m[1]);
    expect(codes).toEqual(['RO', 'PK', 'C62']);
    expect(text).not.toContain('unit: Rolle groß');
  });

  it('writes BMEcat unit codes, keeps an unknown unit as a remark, and names the parties', async () => {
    const text = await write(
      singleOrder({
        deliveryDate: '2026-01-20',
        orderedArticleLines: [
          { _id: 'l-1', quantity: 3, unit: 'Stück' },
          { _id: 'l-2', quantity: 1, unit: 'Rolle groß' },
          { _id: 'l-3', quantity: 10, unit: 'Packung' },
          { _id: 'l-4', quantity: 2, unit: 'Flasche' },
        ],
      }),
    );
    expect(text).toContain('<bmecat:ORDER_UNIT>C62</bmecat:ORDER_UNIT>');
    expect(text).toContain('<bmecat:ORDER_UNIT>PK</bmecat:ORDER_UNIT>');
    expect(text).toContain('<bmecat:ORDER_UNIT>BO</bmecat:ORDER_UNIT>');
    expect(text).toContain('<REMARKS type="general">unit: Rolle groß</REMARKS>');
    expect(text).toContain('<DELIVERY_START_DATE>2026-01-20</DELIVERY_START_DATE>');
    expect(text).toContain(
      '<bmecat:BUYER_IDREF type="supplier_specific">homecare-platform</bmecat:BUYER_IDREF>',
    );
    expect(text).toContain('<DELIVERY_IDREF type="supplier_specific">K-10042</DELIVERY_IDREF>');
  });

  it('names a direct order by its _id, as a single order', async () => {
    const order = directOrder();
    const text = await write(order);
    expect(text).toContain(`<ORDER_ID>${order.id}</ORDER_ID>`);
  });

  it('cuts an address part to its BMEcat length and keeps the whole in a header remark', async () => {
    const street = `Am ${'Lange'.repeat(12)}weg 1`;
    const text = await write(singleOrder({ deliveryAddress: { name: 'Erika', address: street } }));
    expect(text).toContain(`<bmecat:STREET>${[...street].slice(0, 50).join('')}</bmecat:STREET>`);
    expect(text).toContain(`<REMARKS type="general">delivery address STREET in full: ${street}`);
  });

  it('catches what the writer wrote before: X… unit codes, no parties reference', async () => {
    const text = await write(singleOrder());
    const withoutReference = text.replace(
      /<ORDER_PARTIES_REFERENCE>[\s\S]*<\/ORDER_PARTIES_REFERENCE>/,
      '',
    );
    expect(await openTransProblems(withoutReference)).toEqual([
      expect.stringMatching(/^line 4: Element 'ORDER_INFO': Missing child element\(s\)\./),
    ]);
    const oldUnit = text.replace('<bmecat:ORDER_UNIT>PK<', '<bmecat:ORDER_UNIT>XPK<');
    expect(await openTransProblems(oldUnit)).toEqual([
      expect.stringMatching(
        /^line \d+: Element 'bmecat:ORDER_UNIT': \[facet 'enumeration'\] The value 'XPK' is not in the schema's list\.$/,
      ),
    ]);
  });

  it('rejects, without a file, an order no valid ORDER can say', async () => {
    const refused = [
      [
        singleOrder({ orderedArticleLines: [{ _id: 'l-1', quantity: 1, archived: true }] }),
        /an ORDER needs a line/,
      ],
      [singleOrder({ patientId: undefined, patientCustomerId: undefined }), /names no patient/],
      [
        singleOrder({
          orderedArticleLines: [{ _id: 'l-1', articleCustomerNumber: 'A'.repeat(51) }],
        }),
        /SUPPLIER_PID "A+" is longer than the 50 characters/,
      ],
      [
        singleOrder({ orderedArticleLines: [{ _id: 'l-1', quantity: '2,5' }] }),
        /line l-1: quantity "2,5" is not a decimal number/,
      ],
    ] as const;
    for (const [order, reason] of refused) {
      expect(await deliver(order)).toEqual({
        status: 'rejected',
        reason: expect.stringMatching(reason) as string,
      });
      expect(await written(order.resource)).toEqual([]);
    }
  });
});
