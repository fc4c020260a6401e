import { execFileSync } from 'node:child_process';
import {
  chmod,
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type CountInbound,
} from '../../../src/erp/inbound/index.js';
import { createLogger, fileLabel } from '../../../src/log/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';

const status = (salesId: string) =>
  JSON.stringify({ orderType: 'single', id: 'o-1', salesId, status: 3 });

type LogLine = Record<string, unknown> & { level: string; msg: string };

describe('inbox: entries that are no regular file, and files with more than one name', () => {
  let root: string;
  let inboxDir: string;
  let outside: string;
  let cleanup: () => Promise<void>;
  let recorder: AcceptRecorder;
  let lines: LogLine[];
  let counted: string[];
  const clock = new FakeClock('2026-01-15T10:00:00.000Z');
  beforeEach(async () => {
    ({ dir: root, cleanup } = await tempFolder());
    inboxDir = join(root, 'inbox');
    outside = join(root, 'outside');
    await mkdir(join(inboxDir, 'orderStatus'), { recursive: true });
    await mkdir(outside);
    recorder = new AcceptRecorder();
    lines = [];
    counted = [];
  });
  afterEach(() => cleanup());

  const count: CountInbound = (labels, messages) => {
    if (messages > 0) counted.push(`${labels.source} ${labels.kind} ${labels.result} ${messages}`);
  };
  const open = () =>
    createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: inboxDir, minFileAgeMs: 0 },
      {
        clock,
        kinds: KINDS,
        accept: recorder.accept,
        count,
        logger: createLogger({
          level: 'debug',
          destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
        }),
      },
    );
  const inKind = (name: string) => join(inboxDir, 'orderStatus', name);
  const errorFolder = () => readdir(join(inboxDir, '.error', 'orderStatus')).catch(() => []);
  const warnings = () => lines.filter((l) => l.level === 'warn');
  const report = async (name: string) =>
    JSON.parse(
      await readFile(join(inboxDir, '.error', 'orderStatus', `${name}.error.json`), 'utf8'),
    ) as { file: string; kind: string; reason: string };

  it('reports a FIFO, a directory and a symlink once each, and leaves them as they are', async () => {
    execFileSync('mkfifo', [inKind('pipe.json')]);
    await mkdir(inKind('folder.json'));
    await writeFile(join(outside, 'secret.json'), status('S-OUTSIDE'), { mode: 0o644 });
    await symlink(join(outside, 'secret.json'), inKind('link.json'));
    await writeFile(inKind('good.json'), status('S-1'));
    const inbox = open();

    for (let scan = 0; scan < 4; scan += 1) await inbox.scanOnce();

    expect(recorder.messages.map((m) => m.name)).toEqual(['good.json']);
    // Named by their labels, as every file name in the log.
    expect(warnings().map((l) => l.msg)).toEqual([
      expect.stringContaining(
        `inbox: orderStatus/${fileLabel('folder.json')} is a directory, not a regular file`,
      ),
      expect.stringContaining(
        `inbox: orderStatus/${fileLabel('link.json')} is a symbolic link, not a regular file: links are not followed`,
      ),
      expect.stringContaining(
        `inbox: orderStatus/${fileLabel('pipe.json')} is a FIFO (named pipe), not a regular file`,
      ),
    ]);
    expect(counted.filter((c) => c.includes('rejected'))).toEqual([
      'file orderStatus rejected 1',
      'file orderStatus rejected 1',
      'file orderStatus rejected 1',
    ]);
    expect((await errorFolder()).sort()).toEqual([
      'folder.json.error.json',
      'link.json.error.json',
      'pipe.json.error.json',
    ]);
    expect(await report('pipe.json')).toMatchObject({
      file: 'pipe.json',
      kind: 'orderStatus',
      reason: expect.stringContaining('left where it is and not read') as unknown,
    });

    // Untouched: still where they were, the link still pointing out, its target as it was.
    expect((await lstat(inKind('pipe.json'))).isFIFO()).toBe(true);
    expect((await lstat(inKind('folder.json'))).isDirectory()).toBe(true);
    expect(await readlink(inKind('link.json'))).toBe(join(outside, 'secret.json'));
    expect(await readFile(join(outside, 'secret.json'), 'utf8')).toBe(status('S-OUTSIDE'));
    expect((await stat(join(outside, 'secret.json'))).mode & 0o777).toBe(0o644);
  });

  it('reports an entry again once it was replaced by another', async () => {
    await mkdir(inKind('x.json'));
    const inbox = open();
    await inbox.scanOnce();
    await inbox.scanOnce();
    await rm(inKind('x.json'), { recursive: true });
    execFileSync('mkfifo', [inKind('x.json')]);
    await inbox.scanOnce();
    await inbox.scanOnce();

    expect(warnings().map((l) => l['entry'])).toEqual(['a directory', 'a FIFO (named pipe)']);
    expect((await errorFolder()).sort()).toEqual(['x.json.error.2.json', 'x.json.error.json']);
  });

  it('refuses a file with a second name outside the inbox: not read, its mode not changed', async () => {
    const original = join(outside, 'config.json');
    await writeFile(original, status('S-LINKED'));
    await chmod(original, 0o644);
    await link(original, inKind('linked.json'));
    const inbox = open();

    await inbox.scanOnce();
    const second = await inbox.scanOnce();

    expect(recorder.messages).toEqual([]);
    expect(second.files).toEqual([
      expect.objectContaining({ file: 'linked.json', status: 'rejected' }),
    ]);
    expect((await stat(original)).mode & 0o777).toBe(0o644);
    expect(await readFile(original, 'utf8')).toBe(status('S-LINKED'));
    expect(await readdir(join(inboxDir, 'orderStatus'))).toEqual([]);
    expect((await errorFolder()).sort()).toEqual(['linked.json', 'linked.json.error.json']);
    expect((await report('linked.json')).reason).toMatch(/^the file has 2 hard links/);
    expect(warnings()).toHaveLength(1);
  });

  it('refuses a file with two names that a crash left in .processing', async () => {
    const original = join(outside, 'data.json');
    await writeFile(original, status('S-LEFT'));
    await chmod(original, 0o604);
    await mkdir(join(inboxDir, '.processing', 'orderStatus'), { recursive: true });
    await link(original, join(inboxDir, '.processing', 'orderStatus', 'left.json'));

    const report = await open().scanOnce();

    expect(report.counts.rejected).toBe(1);
    expect(recorder.messages).toEqual([]);
    expect((await stat(original)).mode & 0o777).toBe(0o604);
  });
});
