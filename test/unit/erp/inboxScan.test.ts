import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
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

const MIN_AGE = 1_000;
const status = (salesId: string) =>
  JSON.stringify({ orderType: 'single', id: 'o-1', salesId, status: 3 });

describe('inbox scanner', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let clock: FakeClock;
  let recorder: AcceptRecorder;
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    clock = new FakeClock('2026-01-15T23:59:59.500Z');
    recorder = new AcceptRecorder();
  });
  afterEach(() => cleanup());

  const open = (extra: Partial<InboxOptions> = {}) =>
    createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: MIN_AGE, ...extra },
      { clock, kinds: KINDS, accept: recorder.accept },
    );
  const drop = async (kind: string, name: string, content: string | Buffer) => {
    await mkdir(join(dir, kind), { recursive: true });
    await writeFile(join(dir, kind, name), content);
  };
  /** Two looks far enough apart for a file that stopped changing to count as complete. */
  async function settle(inbox: ReturnType<typeof open>) {
    await inbox.scanOnce();
    clock.advance(MIN_AGE);
    return inbox.scanOnce();
  }
  const errorReport = async (kind: string, name: string) =>
    JSON.parse(await readFile(join(dir, '.error', kind, `${name}.error.json`), 'utf8')) as {
      file: string;
      kind: string;
      reason: string;
      problems: { path?: string; row?: number; message: string }[];
      at: string;
    };

  it('takes a complete file, hands it over and archives it under the clock date', async () => {
    const inbox = open();
    await drop('orderStatus', 'a.json', status('S-1'));
    const first = await inbox.scanOnce();
    expect(first.files).toEqual([expect.objectContaining({ file: 'a.json', status: 'waiting' })]);
    expect(recorder.messages).toEqual([]);
    clock.advance(MIN_AGE);
    const second = await inbox.scanOnce();
    expect(second.counts.accepted).toBe(1);
    expect(recorder.messages).toEqual([
      expect.objectContaining({
        kind: 'orderStatus',
        source: 'file',
        name: 'a.json',
        body: { orderType: 'single', id: 'o-1', salesId: 'S-1', status: 3 },
      }),
    ]);
    expect(recorder.messages[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The clock passed midnight between the looks: the archive is named for the day of the move.
    expect(await readdir(join(dir, '.archive', 'orderStatus', '2026-01-16'))).toEqual(['a.json']);
    expect(await readdir(join(dir, 'orderStatus'))).toEqual([]);
  });

  it('does not take a file whose size changes between looks', async () => {
    const inbox = open();
    await drop('orderStatus', 'a.json', '{"orderType": "single",');
    await inbox.scanOnce();
    clock.advance(MIN_AGE);
    await appendFile(join(dir, 'orderStatus', 'a.json'), ' "id": "o-1", "status": 3}');
    const growing = await inbox.scanOnce();
    expect(growing.files).toEqual([
      expect.objectContaining({ status: 'waiting', reason: 'still being written' }),
    ]);
    clock.advance(MIN_AGE / 2);
    expect((await inbox.scanOnce()).counts.waiting).toBe(1);
    clock.advance(MIN_AGE / 2);
    expect((await inbox.scanOnce()).counts.accepted).toBe(1);
    expect(recorder.messages).toHaveLength(1);
  });

  it('with doneMarker takes a file only once its marker is there, and removes the marker', async () => {
    const inbox = open({ doneMarker: true });
    await drop('orderStatus', 'a.json', status('S-1'));
    clock.advance(60 * MIN_AGE);
    expect((await inbox.scanOnce()).files).toEqual([
      expect.objectContaining({ status: 'waiting', reason: 'no .done marker yet' }),
    ]);
    await drop('orderStatus', 'a.json.done', '');
    expect((await inbox.scanOnce()).counts.accepted).toBe(1);
    expect(await readdir(join(dir, 'orderStatus'))).toEqual([]);
  });

  it('takes files in name order', async () => {
    const inbox = open();
    for (const name of ['b.json', 'c.json', 'a.json'])
      await drop('orderStatus', name, status(name));
    await settle(inbox);
    expect(recorder.messages.map((m) => m.name)).toEqual(['a.json', 'b.json', 'c.json']);
  });

  it('sends bad files to .error with a report while the good ones go through', async () => {
    const inbox = open({ maxFileBytes: 400 });
    await drop('orderStatus', '1-invalid.json', '{"orderType": "single", ');
    await drop(
      'orderStatus',
      '2-schema.json',
      '{"orderType": "single", "id": "o-1", "status": "three"}',
    );
    await drop('orderStatus', '3-bytes.json', Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    await drop(
      'orderStatus',
      '4-large.json',
      `{"orderType": "single", "id": "${'x'.repeat(500)}"}`,
    );
    await drop('orderStatus', '..\\..\\5-escape.json', status('S-5'));
    await drop('orderStatus', '6-wrong.txt', status('S-6'));
    await drop('orderStatus', '7-good.json', status('S-7'));
    const report = await settle(inbox);

    expect(report.counts).toMatchObject({ rejected: 6, accepted: 1 });
    expect(recorder.messages.map((m) => m.name)).toEqual(['7-good.json']);
    const inError = (await readdir(join(dir, '.error', 'orderStatus'))).sort();
    expect(inError.filter((n) => !n.endsWith('.error.json'))).toHaveLength(6);

    const schema = await errorReport('orderStatus', '2-schema.json');
    expect(schema).toMatchObject({
      file: '2-schema.json',
      kind: 'orderStatus',
      at: '2026-01-16T00:00:00.500Z',
    });
    expect(schema.problems).toEqual([
      { path: 'status', message: 'Invalid input: expected number, received string' },
    ]);
    expect((await errorReport('orderStatus', '1-invalid.json')).reason).toMatch(/^not valid JSON/);
    expect((await errorReport('orderStatus', '3-bytes.json')).reason).toContain(
      'not valid UTF-8 (first bad byte at offset 2)',
    );
    expect((await errorReport('orderStatus', '4-large.json')).reason).toContain('maxFileBytes');
    expect((await errorReport('orderStatus', '..\\..\\5-escape.json')).reason).toContain(
      'path separator',
    );
    expect((await errorReport('orderStatus', '6-wrong.txt')).reason).toContain(
      'does not end in .json',
    );
    expect(await readdir(dir)).not.toContain('5-escape.json');
  });

  it('finishes a file a crash left in .processing before anything else', async () => {
    await mkdir(join(dir, '.processing', 'patient'), { recursive: true });
    await writeFile(join(dir, '.processing', 'patient', 'z.json'), '{"customerId": "K-9"}');
    await drop('orderStatus', 'a.json', status('S-1'));
    await settle(open());
    expect(recorder.messages.map((m) => `${m.kind}/${m.name}`)).toEqual([
      'patient/z.json',
      'orderStatus/a.json',
    ]);
    expect(await readdir(join(dir, '.processing', 'patient'))).toEqual([]);
  });

  it('archives a file the caller already has, and says it was a repeat', async () => {
    const inbox = open();
    await drop('orderStatus', 'a.json', status('S-1'));
    await settle(inbox);
    await drop('orderStatus', 'a.json', status('S-1'));
    const again = await settle(inbox);
    expect(again.files).toEqual([expect.objectContaining({ file: 'a.json', status: 'repeat' })]);
    expect(recorder.messages).toHaveLength(1);
    expect((await readdir(join(dir, '.archive', 'orderStatus', '2026-01-16'))).sort()).toEqual([
      'a.2.json',
      'a.json',
    ]);
  });

  it('keeps a file in .processing when the hand-off fails, and hands it over next scan', async () => {
    const inbox = open();
    await drop('orderStatus', 'a.json', status('S-1'));
    recorder.failWith = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const failed = await settle(inbox);
    const [result] = failed.files;
    expect(result?.status).toBe('failed');
    expect(result?.status === 'failed' && result.reason).toContain('database is locked');
    expect(await readdir(join(dir, '.processing', 'orderStatus'))).toEqual(['a.json']);
    recorder.failWith = undefined;
    expect((await inbox.scanOnce()).counts.accepted).toBe(1);
    expect(recorder.messages).toHaveLength(1);
  });

  // Said once in the log as a state (inboxFaults.test.ts); each scan's report names what is there.
  it('reports an unknown folder at each scan and leaves it alone', async () => {
    const inbox = open();
    await drop('orders', 'x.json', status('S-1'));
    expect((await inbox.scanOnce()).unknown).toEqual(['orders']);
    clock.advance(MIN_AGE);
    expect((await inbox.scanOnce()).unknown).toEqual(['orders']);
    expect(await readdir(join(dir, 'orders'))).toEqual(['x.json']);
  });

  it('reads windows-1252 files when told to', async () => {
    const inbox = open({ charset: 'windows-1252' });
    await drop(
      'patient',
      'p.json',
      iconv.encode('{"customerId": "K-1", "lastName": "Müller"}', 'windows-1252'),
    );
    await settle(inbox);
    expect(recorder.messages[0]?.body).toEqual({ customerId: 'K-1', lastName: 'Müller' });
  });
});
