import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_FILE_WAIT_MS } from '../../../src/erp/inbound/completeness.js';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type InboxOptions,
  type ScanReport,
} from '../../../src/erp/inbound/index.js';
import { createLogger } from '../../../src/log/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';

const MIN_AGE = 1_000;

interface LogLine {
  level: number | string;
  msg: string;
}

/**
 * Design, #23 (c): an empty file, or one whose name is not valid UTF-8, used to stay in the
 * inbox for ever (the latter with a warning every scan). After a bounded wait each ends in
 * `.error/` with a report, and is reported once.
 */
describe('inbox files that can never be read', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let clock: FakeClock;
  let recorder: AcceptRecorder;
  let logs: LogLine[];
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    clock = new FakeClock('2026-03-01T08:00:00.000Z');
    recorder = new AcceptRecorder();
    logs = [];
  });
  afterEach(() => cleanup());

  const open = (extra: Partial<InboxOptions> = {}) => {
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) },
    });
    return createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: MIN_AGE, ...extra },
      { clock, kinds: KINDS, accept: recorder.accept, logger },
    );
  };
  /** `name` as bytes, so that it may be a name no UTF-8 text spells. */
  const drop = async (kind: string, name: Buffer, content: string) => {
    await mkdir(join(dir, kind), { recursive: true });
    await writeFile(Buffer.concat([Buffer.from(join(dir, kind) + sep), name]), content);
  };
  const warnings = () => logs.filter((line) => line.level === 'warn' || line.level === 40);
  const rejected = (report: ScanReport) => report.files.filter((f) => f.status === 'rejected');
  const readReport = async (path: string) =>
    JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

  it('sets an empty file aside with a report once it stayed empty for EMPTY_FILE_WAIT_MS', async () => {
    const inbox = open();
    await drop('patient', Buffer.from('leer.json'), '');
    for (let waited = 0; waited < EMPTY_FILE_WAIT_MS; waited += EMPTY_FILE_WAIT_MS / 4) {
      const report = await inbox.scanOnce();
      expect(report.files).toEqual([expect.objectContaining({ status: 'waiting' })]);
      clock.advance(EMPTY_FILE_WAIT_MS / 4);
    }
    const report = await inbox.scanOnce();
    const [refused] = rejected(report);
    expect(refused?.file).toBe('leer.json');
    expect(refused?.status === 'rejected' && refused.reason).toMatch(/^the file is empty/);
    expect(rejected(report)).toHaveLength(1);
    expect(await readdir(join(dir, 'patient'))).toEqual([]);
    expect((await readdir(join(dir, '.error', 'patient'))).sort()).toEqual([
      'leer.json',
      'leer.json.error.json',
    ]);
    expect(await readReport(join(dir, '.error', 'patient', 'leer.json.error.json'))).toMatchObject({
      file: 'leer.json',
      kind: 'patient',
    });
    clock.advance(EMPTY_FILE_WAIT_MS);
    expect((await inbox.scanOnce()).files).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(recorder.messages).toEqual([]);
  });

  it('takes a file that was empty at first once it is written and stays unchanged', async () => {
    const inbox = open();
    await drop('orderStatus', Buffer.from('a.json'), '');
    await inbox.scanOnce();
    clock.advance(MIN_AGE);
    await writeFile(
      join(dir, 'orderStatus', 'a.json'),
      '{"orderType": "single", "id": "o-1", "status": 3}',
    );
    expect((await inbox.scanOnce()).counts.waiting).toBe(1);
    clock.advance(MIN_AGE);
    expect((await inbox.scanOnce()).counts.accepted).toBe(1);
  });

  it('sets a file whose name is not valid UTF-8 aside, unread, with one report and one warning', async () => {
    const inbox = open();
    // "Bestellung-M<0xFC>ller.json": ü in Latin-1, as an ERP on a Windows code page names it.
    const name = Buffer.concat([Buffer.from('M'), Buffer.from([0xfc]), Buffer.from('ller.json')]);
    await drop('patient', name, '{"customerId": "K-1", "lastName": "Müller"}');

    const first = await inbox.scanOnce();
    expect(first.files).toEqual([
      expect.objectContaining({ file: 'M\uFFFDller.json', status: 'waiting' }),
    ]);
    expect(warnings()).toEqual([]);
    clock.advance(MIN_AGE);
    const second = await inbox.scanOnce();
    const [refused] = rejected(second);
    expect(rejected(second)).toHaveLength(1);
    expect(refused?.file).toBe('M\uFFFDller.json');
    expect(refused?.status === 'rejected' && refused.reason).toContain(
      'the file name is not valid UTF-8 (its bytes: 4dfc6c6c65722e6a736f6e; first bad byte at offset 1)',
    );
    expect(recorder.messages).toEqual([]);
    expect(await readdir(join(dir, 'patient'))).toEqual([]);
    const error = join(dir, '.error', 'patient');
    expect((await readdir(error)).sort()).toEqual(['M_ller.json', 'M_ller.json.error.json']);
    expect(await readFile(join(error, 'M_ller.json'), 'utf8')).toContain('Müller');
    expect((await lstat(join(error, 'M_ller.json'))).mode & 0o777).toBe(
      DEFAULT_INBOX_OPTIONS.fileMode,
    );
    expect(await readReport(join(error, 'M_ller.json.error.json'))).toMatchObject({
      file: 'M\uFFFDller.json',
      fileNameHex: '4dfc6c6c65722e6a736f6e',
      kind: 'patient',
      problems: [],
    });

    for (let scan = 0; scan < 3; scan += 1) {
      clock.advance(MIN_AGE);
      expect((await inbox.scanOnce()).files).toEqual([]);
    }
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.msg).toContain('not valid UTF-8');
  });

  it('with doneMarker sets it aside once its marker is there, and removes the marker', async () => {
    const inbox = open({ doneMarker: true });
    const name = Buffer.from([0x61, 0xff, 0x2e, 0x6a, 0x73, 0x6f, 0x6e]);
    await drop('orderStatus', name, '{}');
    clock.advance(60 * MIN_AGE);
    expect((await inbox.scanOnce()).files).toEqual([
      expect.objectContaining({ status: 'waiting', reason: 'no .done marker yet' }),
    ]);
    await drop('orderStatus', Buffer.concat([name, Buffer.from('.done')]), '');
    expect(rejected(await inbox.scanOnce())).toHaveLength(1);
    expect(await readdir(join(dir, 'orderStatus'))).toEqual([]);
  });

  it('leaves a hidden file with such a name alone, as any hidden file (the ERP writes it still)', async () => {
    const inbox = open();
    await drop('orderStatus', Buffer.from([0x2e, 0x61, 0xff, 0x2e, 0x74, 0x6d, 0x70]), '{');
    await inbox.scanOnce();
    clock.advance(EMPTY_FILE_WAIT_MS);
    expect((await inbox.scanOnce()).files).toEqual([]);
    expect(await readdir(join(dir, 'orderStatus'))).toHaveLength(1);
  });
});
