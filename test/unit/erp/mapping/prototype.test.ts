import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
  recordBaseName,
} from '../../../../src/erp/outbound/file/index.js';
import { parseArticleCsv } from '../../../../src/erp/formats/index.js';
import {
  inboundMapping,
  mapRecord,
  nestedObject,
  outboundMapping,
  rowObjects,
  type InputRecord,
} from '../../../../src/erp/mapping/index.js';
import { FakeClock } from '../../../support/fakeClock.js';
import { KINDS } from '../../../support/inboxKinds.js';
import { singleOrder, tempFolder } from '../../../support/erp/fileDropSupport.js';

/** What a polluted prototype would show on every object of the process. */
const polluted = () =>
  ['polluted', 'bad', 'lastName'].filter((key) => key in Object.prototype || key in {});

/** Mappings that `config check` refuses, built here as if one had slipped through. */
const HOSTILE = {
  fields: {
    '__proto__.polluted': { from: 'deliveryAddress.name' },
    'constructor.prototype.bad': { from: '_id' },
    'Kopf.__proto__.lastName': { from: 'deliveryAddress.city' },
  },
};

describe('mapping: objects without prototypes', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  it('writes nothing onto Object.prototype however a target is named, in every layout', async () => {
    const context = { tables: {}, timeZone: 'Europe/Berlin' };
    const order = singleOrder();
    for (const lines of ['rows', 'nested'] as const) {
      const mapping = outboundMapping('singleOrder', HOSTILE, context, lines);
      nestedObject(mapping, order.record);
      rowObjects(mapping, order.record);
    }
    const adapter = await createFileAdapter(
      {
        ...DEFAULT_FILE_ADAPTER_OPTIONS,
        outbox: dir,
        format: 'json',
        mapping: { singleOrder: HOSTILE },
      },
      { clock: new FakeClock() },
    );
    expect(await adapter.deliver([order], 1)).toEqual([{ status: 'delivered' }]);
    const file = join(dir, 'singleOrder', `${recordBaseName(order.id, order.version)}.json`);
    // Kept as data, as written: config check refuses such a mapping before it gets here.
    expect(await readFile(file, 'utf8')).toContain('"polluted": "Erika Mustermann"');
    expect(polluted()).toEqual([]);
  });

  it('reads nothing onto Object.prototype, from a mapped file or an article CSV header', () => {
    const kind = KINDS.find('patient');
    if (kind === undefined) throw new Error('no patient kind');
    const made = inboundMapping(
      'patient',
      kind.shape(),
      { format: 'csv', fields: { lastName: { from: 'Name' } } },
      { tables: {}, timeZone: 'Europe/Berlin', decimalComma: false },
    );
    if (!made.ok) throw new Error('the mapping is refused');
    const [field] = made.mapping.fields;
    if (field === undefined) throw new Error('no field');
    const slipped = { ...made.mapping, fields: [{ ...field, path: ['__proto__', 'polluted'] }] };
    const record: InputRecord = {
      where: { line: 2 },
      cell: () => ({ text: 'Meier', where: { line: 2 } }),
      lines: [],
    };
    mapRecord(slipped, record);
    const article = KINDS.find('article');
    if (article === undefined) throw new Error('no article kind');
    const csv = parseArticleCsv(
      '__proto__,customerNumber\nx,100-1\n',
      { delimiter: ',', quote: '"', encoding: 'utf-8', decimalComma: false },
      article,
    );
    expect(csv).toEqual({
      ok: false,
      problems: [
        { row: 1, message: 'column "__proto__" is not an article field; check the header' },
      ],
    });
    expect(polluted()).toEqual([]);
  });
});
