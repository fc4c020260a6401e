import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../../src/erp/adapter.js';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type CountInbound,
  type ScanReport,
} from '../../../src/erp/inbound/index.js';
import { createLogger, fileLabel } from '../../../src/log/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';

const status = (salesId: string) =>
  JSON.stringify({ orderType: 'single', id: 'o-1', salesId, status: 3 });
/** A patient message whose `note` nests 100,000 arrays deep. */
const deepPatient = (customerId: string) =>
  `{"customerId": "${customerId}", "note": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
/** 255 bytes, the longest name a file system takes: `.error.json` or `.2` cannot be added. */
const longName = (n: number) => `${String(n).padStart(3, '0')}-${'ä'.repeat(122)}xy.json`;

type LogLine = Record<string, unknown> & { level: string; msg: string };

describe('inbox: files that fail in every way end in .error, and the scan goes on', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let recorder: AcceptRecorder;
  let lines: LogLine[];
  let counted: string[];
  const clock = new FakeClock('2026-01-15T10:00:00.000Z');
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    recorder = new AcceptRecorder();
    lines = [];
    counted = [];
  });
  afterEach(() => cleanup());

  const count: CountInbound = (labels, messages) => {
    if (messages > 0) counted.push(`${labels.source} ${labels.kind} ${labels.result} ${messages}`);
  };
  /** The store keeps each message as JSON text; serialising it is part of the real hand-off. */
  const accept = (messages: readonly InboxMessage[]) => {
    for (const message of messages) JSON.stringify(message.body);
    return recorder.accept(messages);
  };
  const open = () =>
    createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: 0 },
      {
        clock,
        kinds: KINDS,
        accept,
        count,
        logger: createLogger({
          level: 'debug',
          destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
        }),
      },
    );
  const drop = async (kind: string, name: string, content: string) => {
    await mkdir(join(dir, kind), { recursive: true });
    await writeFile(join(dir, kind, name), content);
  };
  /** Files are taken at the second look (minFileAgeMs 0: unchanged between two looks). */
  const settle = async (inbox: ReturnType<typeof open>) => {
    await inbox.scanOnce();
    return inbox.scanOnce();
  };
  const handled = (report: ScanReport) => report.files.filter((f) => f.status !== 'waiting');

  it('sets aside 50 deeply nested or long-named files in one scan and reads none of them again', async () => {
    for (let n = 0; n < 25; n += 1) await drop('patient', `deep-${n}.json`, deepPatient(`K-${n}`));
    for (let n = 0; n < 25; n += 1) await drop('orderStatus', longName(n), '{"orderType": 1}');
    const inbox = open();

    const first = await settle(inbox);
    expect(first.counts).toMatchObject({ rejected: 50, failed: 0 });
    expect(await readdir(join(dir, '.processing', 'patient'))).toEqual([]);
    expect(await readdir(join(dir, '.processing', 'orderStatus'))).toEqual([]);
    const deepReport = JSON.parse(
      await readFile(join(dir, '.error', 'patient', 'deep-7.json.error.json'), 'utf8'),
    ) as { reason: string };
    expect(deepReport.reason).toMatch(/nest deeper than 64 levels/);

    const inError = await readdir(join(dir, '.error', 'orderStatus'));
    expect(inError.filter((n) => !n.endsWith('.error.json')).sort()).toEqual(
      Array.from({ length: 25 }, (_, n) => longName(n)).sort(),
    );
    const reports = inError.filter((n) => n.endsWith('.error.json'));
    expect(reports).toHaveLength(25);
    for (const report of reports) {
      expect(Buffer.byteLength(report)).toBeLessThanOrEqual(255);
      expect(report).toMatch(/~[0-9a-f]{8}\.error\.json$/);
    }
    const named = (
      JSON.parse(await readFile(join(dir, '.error', 'orderStatus', reports[0] ?? ''), 'utf8')) as {
        file: string;
      }
    ).file;
    expect(named).toMatch(/^\d{3}-ä+xy\.json$/);

    const second = await inbox.scanOnce();
    expect(handled(second)).toEqual([]);
    expect(recorder.messages).toEqual([]);
  });

  it('gives a long name dropped twice a second, still short enough, name in .error', async () => {
    const inbox = open();
    await drop('orderStatus', longName(1), '{"orderType": 1}');
    await settle(inbox);
    await drop('orderStatus', longName(1), '{"orderType": 2}');
    expect((await settle(inbox)).counts.rejected).toBe(1);
    const names = await readdir(join(dir, '.error', 'orderStatus'));
    expect(names).toHaveLength(4);
    expect(names.every((n) => Buffer.byteLength(n) <= 255)).toBe(true);
    expect(names.filter((n) => /~[0-9a-f]{8}\.2\.json$/.test(n))).toHaveLength(1);
  });

  it('logs a partly bad file with its messages and refused rows, and counts each (issue 36)', async () => {
    const inbox = open();
    await drop(
      'patient',
      'patients.csv',
      ['customerId,lastName', 'K-1,Eins', ',Ohne', 'K-2,Zwei', 'K-1,Eins'].join('\n'),
    );
    await settle(inbox);
    const label = fileLabel('patients.csv');
    const logged = lines.find((l) => l.msg.startsWith(`inbox: patient/${label} archived`));
    expect(logged).toMatchObject({
      level: 'warn',
      accepted: 2,
      refused: 1,
      msg: expect.stringMatching(
        /^inbox: patient\/#[0-9a-f]{8}\.csv archived: 2 accepted, 1 row\(s\) refused; see \S+$/,
      ) as unknown,
    });
    expect(counted.sort()).toEqual(['file patient accepted 2', 'file patient rejected 1']);
  });

  it('logs each rejected file at warn with its reason and label, and counts it', async () => {
    const inbox = open();
    await drop('orderStatus', 'Mustermann-order.json', '{"orderType": "single", ');
    await drop('orderStatus', 'good.json', status('S-1'));
    await settle(inbox);
    // An ERP may name a file after its patient: the log names it by its label.
    const label = fileLabel('Mustermann-order.json');
    const rejected = lines.find((l) =>
      l.msg.startsWith(`inbox: orderStatus/${label} rejected: not valid JSON`),
    );
    expect(JSON.stringify(lines)).not.toContain('Mustermann');
    expect(rejected).toMatchObject({
      level: 'warn',
      kind: 'orderStatus',
      file: label,
      reason: expect.stringMatching(/^not valid JSON/) as unknown,
    });
    const good = fileLabel('good.json');
    expect(
      lines.find((l) => l.msg === `inbox: orderStatus/${good} archived: 1 accepted`),
    ).toMatchObject({
      level: 'info',
      file: good,
    });
    expect(lines.findLast((l) => l.msg === 'inbox scanned')).toMatchObject({
      level: 'info',
      counts: expect.objectContaining({ accepted: 1, rejected: 1 }) as unknown,
    });
    expect(counted.sort()).toEqual(['file orderStatus accepted 1', 'file orderStatus rejected 1']);
  });

  it('skips a kind folder that became a plain file, names it at warn, and reads the other kinds', async () => {
    const inbox = open();
    await inbox.scanOnce();
    await rm(join(dir, 'patient'), { recursive: true });
    await writeFile(join(dir, 'patient'), 'not a folder');
    await drop('orderStatus', 'a.json', status('S-1'));

    const report = await settle(inbox);
    expect(report.counts.accepted).toBe(1);
    expect(report.folders).toEqual([
      expect.objectContaining({ kind: 'patient', path: join(dir, 'patient') }),
    ]);
    const warned = lines.filter((l) => l.level === 'warn' && l['kind'] === 'patient');
    expect(warned).toHaveLength(1);
    expect(warned[0]?.msg).toContain(join(dir, 'patient'));
    await inbox.scanOnce();
    expect(lines.filter((l) => l.level === 'warn' && l['kind'] === 'patient')).toHaveLength(1);

    // A state: said again while it lasts, and once more at info when the folder is back.
    clock.advance(15 * 60_000);
    await inbox.scanOnce();
    const again = lines.filter((l) => l.level === 'warn' && l['kind'] === 'patient');
    expect(again.map((l) => l.msg)).toEqual([
      expect.not.stringMatching(/^still: /),
      expect.stringMatching(/^still: inbox folder .*patient cannot be used/),
    ]);
    await rm(join(dir, 'patient'));
    await inbox.scanOnce();
    await inbox.scanOnce();
    const back = lines.filter((l) => l.level === 'info' && l['kind'] === 'patient');
    expect(back.map((l) => l.msg)).toEqual([
      `inbox folder ${join(dir, 'patient')} can be used again; files of kind patient are read`,
    ]);
  });

  it('names an unknown folder at warn, again while it stays, and at info when it is gone', async () => {
    const inbox = open();
    await mkdir(join(dir, 'orders'));
    await inbox.scanOnce();
    await inbox.scanOnce();
    expect(lines.filter((l) => l.level === 'warn')).toEqual([
      expect.objectContaining({
        entry: 'orders',
        msg: expect.stringMatching(/^the inbox holds orders, which is no inbox kind/) as unknown,
      }),
    ]);
    clock.advance(15 * 60_000);
    await inbox.scanOnce();
    await rm(join(dir, 'orders'), { recursive: true });
    await inbox.scanOnce();
    const said = lines.filter((l) => l['entry'] === 'orders');
    expect(said.map((l) => [l.level, l.msg.slice(0, 30)])).toEqual([
      ['warn', 'the inbox holds orders, which '],
      ['warn', 'still: the inbox holds orders,'],
      ['info', 'the inbox holds orders no more'],
    ]);
  });

  it('sets a file aside when its hand-off fails for a reason that waiting will not fix', async () => {
    const inbox = open();
    await drop('orderStatus', 'a.json', status('S-1'));
    recorder.failWith = new TypeError('cannot read the order reference');
    expect((await settle(inbox)).counts.rejected).toBe(1);
    const report = JSON.parse(
      await readFile(join(dir, '.error', 'orderStatus', 'a.json.error.json'), 'utf8'),
    ) as { reason: string };
    expect(report.reason).toContain('cannot read the order reference');
    expect(report.reason).toContain('move the file back into orderStatus/');
    expect(await readdir(join(dir, '.processing', 'orderStatus'))).toEqual([]);
  });
});
