import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type InboxOptions,
} from '../../../src/erp/inbound/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';

const CSV = [
  'customerNumber;name;stars;packagingUnit1.quantity;packagingUnit1.unit;packagingUnit1.pcn;packagingUnit2.quantity;packagingUnit2.unit;therapyIds;directOrder',
  '100-200;Kompresse 10x10;4,5;10;Stück;PZN1;100;Stück;1|3;ja',
  '100-300;Pflaster;;zehn;Stück;;;;;',
  ';Binde;;1;Stück;;;;;',
  '100-400;Tupfer;;50;Packung;;;;;false',
].join('\r\n');

describe('inbox: article CSV', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let recorder: AcceptRecorder;
  const clock = new FakeClock();
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    recorder = new AcceptRecorder();
  });
  afterEach(() => cleanup());

  async function scan(content: string | Buffer, extra: Partial<InboxOptions> = {}) {
    const csv = { ...DEFAULT_INBOX_OPTIONS.csv, delimiter: ';', decimalComma: true };
    const inbox = createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: 0, csv, ...extra },
      { clock, kinds: KINDS, accept: recorder.accept },
    );
    await mkdir(join(dir, 'article'), { recursive: true });
    await writeFile(join(dir, 'article', 'articles.csv'), content);
    await inbox.scanOnce();
    return inbox.scanOnce();
  }
  const report = async () =>
    JSON.parse(
      await readFile(join(dir, '.error', 'article', 'articles.csv.error.json'), 'utf8'),
    ) as {
      reason: string;
      problems: { row?: number; path?: string; message: string }[];
    };

  it('hands over the good rows as articles and reports the bad rows by row and column', async () => {
    const result = await scan(CSV);
    expect(result.files).toEqual([expect.objectContaining({ status: 'partial', accepted: 2 })]);
    expect(recorder.messages.map((m) => m.name)).toEqual(['articles.csv#2', 'articles.csv#5']);
    expect(recorder.messages[0]?.body).toEqual({
      customerNumber: '100-200',
      name: 'Kompresse 10x10',
      stars: 4.5,
      packagingUnits: [
        { quantity: 10, unit: 'Stück', pcn: 'PZN1' },
        { quantity: 100, unit: 'Stück' },
      ],
      therapyIds: [1, 3],
      directOrder: true,
    });
    expect(recorder.messages[1]?.body).toMatchObject({
      customerNumber: '100-400',
      directOrder: false,
    });
    const { problems } = await report();
    expect(problems).toEqual([
      { row: 3, path: 'packagingUnit1.quantity', message: 'expected a number, got "zehn"' },
      {
        row: 4,
        path: 'customerNumber',
        message: 'Invalid input: expected string, received undefined',
      },
    ]);
    expect(await readdir(join(dir, '.archive', 'article', '2026-01-15'))).toEqual(['articles.csv']);
  });

  it('hands over the same rows only once when the file comes again', async () => {
    await scan(CSV);
    const again = await scan(CSV);
    expect(again.files).toEqual([
      expect.objectContaining({ status: 'partial', accepted: 0, repeat: 2 }),
    ]);
    expect(recorder.messages).toHaveLength(2);
  });

  it('with csvAllOrNothing rejects the whole file on one bad row', async () => {
    const result = await scan(CSV, { csvAllOrNothing: true });
    expect(result.counts.rejected).toBe(1);
    expect(recorder.messages).toEqual([]);
    expect((await report()).problems.map((p) => p.row)).toEqual([3, 4]);
    expect(await readdir(join(dir, '.error', 'article'))).toContain('articles.csv');
  });

  it('with csvAllOrNothing also rejects the whole file when rows of one article disagree, as a mapped file does', async () => {
    const twice = [
      'customerNumber;name;packagingUnit1.quantity;packagingUnit1.unit',
      '100-200;Kompresse;1;Stück',
      '100-200;Pflaster;1;Stück',
      '100-300;Binde;1;Stück',
    ].join('\n');
    const result = await scan(twice, { csvAllOrNothing: true });
    expect(result.counts.rejected).toBe(1);
    expect(recorder.messages).toEqual([]);
    const { reason, problems } = await report();
    expect(reason).toBe('rows with problems; csvAllOrNothing rejects the whole file');
    expect(problems.map((p) => [p.row, p.path])).toEqual([
      [2, 'name'],
      [3, 'name'],
    ]);
  });

  it('rejects a header with a column that is no article field', async () => {
    const result = await scan('customerNumber;nmae\n1;x\n');
    expect(result.counts.rejected).toBe(1);
    expect((await report()).problems).toEqual([
      { row: 1, message: 'column "nmae" is not an article field; check the header' },
    ]);
  });

  it('reads windows-1252 CSV files when told to', async () => {
    const csv = {
      delimiter: ';',
      quote: '"',
      encoding: 'windows-1252' as const,
      decimalComma: true,
    };
    const text =
      'customerNumber;name;packagingUnit1.quantity;packagingUnit1.unit\n7;Größe M;1;Stück\n';
    await scan(iconv.encode(text, 'windows-1252'), { csv });
    expect(recorder.messages[0]?.body).toMatchObject({
      name: 'Größe M',
      packagingUnits: [{ unit: 'Stück' }],
    });
  });
});
