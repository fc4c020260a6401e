import * as nodeFs from 'node:fs/promises';
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import type { OutboxFs } from '../../../src/erp/outbound/file/index.js';
import { FILES_IN_FLIGHT } from '../../../src/erp/outbound/file/placement.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

const VERSION = '2026-01-15T08-00-00.000Z';

/** Order `n` of a batch, each with its own id. */
function order(n: number, overrides: Record<string, unknown> = {}): OutboundRecord {
  const id = `order-${n}`;
  return { ...singleOrder({ _id: id, ...overrides }), id };
}

const batchOf = (count: number) => Array.from({ length: count }, (_, n) => order(n));
const fileOf = (n: number, ext = 'json') => `order-${n}_${VERSION}.${ext}`;
const delivered = (count: number) => Array.from({ length: count }, () => ({ status: 'delivered' }));

/** What the adapter did to the disk, in order: `rename <name>` before it, `fsync <name>` after it. */
interface FsLog {
  events: string[];
  open: number;
  mostOpen: number;
}

/**
 * The real file system, logging renames and fsyncs and counting open files; `fail.open` names
 * paths whose open fails, `fail.folderSync` is thrown by every fsync of a folder.
 */
function observedFs(
  log: FsLog,
  fail: { folderSync?: Error; open?: (path: string) => boolean } = {},
) {
  const fs: OutboxFs = {
    ...nodeFs,
    open: async (...args: Parameters<typeof nodeFs.open>) => {
      const path = String(args[0]);
      if (fail.open?.(path)) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      const handle = await nodeFs.open(...args);
      log.open += 1;
      log.mostOpen = Math.max(log.mostOpen, log.open);
      const [close, sync] = [handle.close.bind(handle), handle.sync.bind(handle)];
      handle.close = () => {
        log.open -= 1;
        return close();
      };
      handle.sync = async () => {
        const isFolder = (await handle.stat()).isDirectory();
        if (fail.folderSync !== undefined && isFolder) throw fail.folderSync;
        await sync();
        log.events.push(`fsync ${basename(path)}`);
      };
      return handle;
    },
    rename: (from, to) => {
      log.events.push(`rename ${basename(String(to))}`);
      return nodeFs.rename(from, to);
    },
  };
  return fs;
}

const newLog = (): FsLog => ({ events: [], open: 0, mostOpen: 0 });
const folderFsyncs = (log: FsLog) => log.events.filter((e) => e === 'fsync singleOrder').length;

describe('file adapter: the files of a batch side by side, one folder fsync', () => {
  let dir: string;
  let folder: string;
  let cleanup: () => Promise<void>;
  const clock = new FakeClock();
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    folder = join(dir, 'singleOrder');
  });
  afterEach(() => cleanup());

  const open = (fs: OutboxFs = nodeFs, extra: Partial<typeof DEFAULT_FILE_ADAPTER_OPTIONS> = {}) =>
    createFileAdapter({ ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, ...extra }, { clock, fs });

  it('writes 50 json files with several open at once, bounded, and fsyncs the folder once', async () => {
    const log = newLog();
    const adapter = await open(observedFs(log));
    expect(await adapter.deliver(batchOf(50), 1)).toEqual(delivered(50));
    expect((await readdir(folder)).sort()).toEqual(
      batchOf(50)
        .map((_, n) => fileOf(n))
        .sort(),
    );
    expect(folderFsyncs(log)).toBe(1);
    expect(log.events.at(-1)).toBe('fsync singleOrder');
    expect(log.mostOpen).toBeGreaterThan(1);
    expect(log.mostOpen).toBeLessThanOrEqual(FILES_IN_FLIGHT);
    expect(log.open).toBe(0);
  });

  it('lists the folder once to find the files already there, instead of reading for each file', async () => {
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, fileOf(3)), 'not this order');
    const reads: string[] = [];
    const listings: string[] = [];
    const fs: OutboxFs = {
      ...nodeFs,
      readFile: ((path: string) => {
        reads.push(basename(path));
        return nodeFs.readFile(path);
      }) as OutboxFs['readFile'],
      readdir: ((path: string) => {
        listings.push(basename(path));
        return nodeFs.readdir(path);
      }) as OutboxFs['readdir'],
    };
    const adapter = await open(fs);
    listings.length = 0;
    const outcomes = await adapter.deliver(batchOf(50), 1);
    // Only the one name the listing showed is read (and found to be another order's content).
    expect(reads).toEqual([fileOf(3)]);
    expect(listings).toEqual(['singleOrder']);
    expect(outcomes.filter((o) => o.status === 'delivered')).toHaveLength(49);
    expect(outcomes[3]?.status).toBe('rejected');
  });

  it('with doneMarker, renames no marker before the folder fsync after the data files', async () => {
    const log = newLog();
    const adapter = await open(observedFs(log), { doneMarker: true });
    expect(await adapter.deliver(batchOf(20), 1)).toEqual(delivered(20));
    expect(await readdir(folder)).toHaveLength(40);
    expect(folderFsyncs(log)).toBe(2);
    const firstFsync = log.events.indexOf('fsync singleOrder');
    const dataRenames = log.events.flatMap((e, i) => (/^rename .*\.json$/.test(e) ? [i] : []));
    const markerRenames = log.events.flatMap((e, i) => (e.endsWith('.json.done') ? [i] : []));
    expect(dataRenames).toHaveLength(20);
    expect(markerRenames).toHaveLength(20);
    expect(Math.max(...dataRenames)).toBeLessThan(firstFsync);
    expect(Math.min(...markerRenames)).toBeGreaterThan(firstFsync);
    expect(log.events.at(-1)).toBe('fsync singleOrder');
  });

  it('puts every companion in place, folder fsynced, before the first record file', async () => {
    const log = newLog();
    const adapter = await open(observedFs(log));
    const pdf = { suffix: 'pdf', contentType: 'application/pdf', data: Buffer.from('%PDF') };
    const batch = batchOf(10).map((item) => ({ ...item, files: [pdf] }));
    expect(await adapter.deliver(batch, 1)).toEqual(delivered(10));
    expect(await readdir(folder)).toHaveLength(20);
    const firstRecord = log.events.findIndex((e) => e.endsWith('.json'));
    const lastCompanion = log.events.findLastIndex((e) => e.endsWith('.pdf'));
    expect(log.events.slice(lastCompanion, firstRecord)).toContain('fsync singleOrder');
    expect(folderFsyncs(log)).toBe(2);
  });

  it('retries only the record whose file cannot be written; the others are delivered', async () => {
    const broken = (path: string) => path.includes(`.${fileOf(7)}.tmp-`);
    const adapter = await open(observedFs(newLog(), { open: broken }));
    const outcomes = await adapter.deliver(batchOf(20), 1);
    const failed = outcomes[7];
    expect(failed?.status).toBe('retry');
    expect(failed?.status === 'retry' && failed.reason).toContain('EIO');
    expect(outcomes.filter((o) => o.status === 'delivered')).toHaveLength(19);
    const names = await readdir(folder);
    expect(names).toHaveLength(19);
    expect(names).not.toContain(fileOf(7));
    expect(await (await open()).deliver(batchOf(20), 2)).toEqual(delivered(20));
    expect(await readdir(folder)).toHaveLength(20);
  });

  it('retries every record of the folder when its fsync fails, and finds them identical then', async () => {
    const fail = { folderSync: Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }) };
    const adapter = await open(observedFs(newLog(), fail));
    const outcomes = await adapter.deliver(batchOf(10), 1);
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 10 }, () => 'retry'));
    const log = newLog();
    expect(await (await open(observedFs(log))).deliver(batchOf(10), 2)).toEqual(delivered(10));
    expect(log.events.filter((e) => e.startsWith('rename'))).toEqual([]);
    expect(folderFsyncs(log)).toBe(1);
  });

  it('counts a file already there with the same bytes as delivered, and rejects other bytes', async () => {
    const adapter = await open();
    await adapter.deliver([order(3)], 1);
    await mkdir(folder, { recursive: true });
    const conflicting = join(folder, fileOf(5));
    await writeFile(conflicting, '{"someone": "else"}\n');
    const log = newLog();
    const outcomes = await (await open(observedFs(log))).deliver(batchOf(10), 2);
    expect(outcomes[3]).toEqual({ status: 'delivered' });
    const refused = outcomes[5];
    expect(refused?.status).toBe('rejected');
    expect(refused?.status === 'rejected' && refused.reason).toContain(conflicting);
    expect(outcomes.filter((o) => o.status === 'delivered')).toHaveLength(9);
    expect(log.events).not.toContain(`rename ${fileOf(3)}`);
    expect(await readFile(conflicting, 'utf8')).toBe('{"someone": "else"}\n');
  });
});
