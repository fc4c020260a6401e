import { access, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import { SetupError, errorMessage } from '../../shared/errors.js';
import { INBOX_KINDS, type InboxKind } from '../adapter.js';
import { CompletenessTracker, type Completeness } from './completeness.js';
import { handleClaimed, type Accept, type HandleContext } from './handle.js';
import { ARCHIVE, ERROR, PROCESSING, layoutOf } from './layout.js';
import type { InboxOptions } from './options.js';
import { scanReport, type FileResult, type ScanReport } from './report.js';

export interface InboxDeps {
  clock: Clock;
  /** Stores the message durably (one SQLite transaction) or says it has it already. */
  accept: Accept;
}

export interface Inbox {
  /** One pass over every kind folder; never sleeps, never throws for a bad file. */
  scanOnce(): Promise<ScanReport>;
}

const OUR_FOLDERS = new Set<string>([PROCESSING, ARCHIVE, ERROR, ...INBOX_KINDS]);
const MARKER = '.done';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Hidden files are the ERP's own temp files; a name starting with `..` is read and refused. */
const isCandidate = (name: string) =>
  (!name.startsWith('.') || name.startsWith('..')) && !name.endsWith(MARKER);

async function filesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => e.name)
      .sort(byName);
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
}

const there = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The file-drop inbox. Each scan first finishes files a crash or a failed hand-off left in
 * `.processing`, then takes complete files from every kind folder in name order.
 */
export function createInbox(options: InboxOptions, deps: InboxDeps): Inbox {
  const layout = layoutOf(options.inbox);
  const context: HandleContext = { layout, options, clock: deps.clock, accept: deps.accept };
  const tracker = new CompletenessTracker(options.minFileAgeMs);
  const reportedUnknown = new Set<string>();
  let prepared = false;
  let running: Promise<ScanReport> | undefined;

  async function prepare(): Promise<void> {
    if (prepared) return;
    try {
      for (const kind of INBOX_KINDS) {
        await mkdir(layout.kind(kind), { recursive: true });
        await mkdir(layout.processing(kind), { recursive: true });
      }
    } catch (error) {
      throw new SetupError(
        `ERP inbox ${options.inbox} cannot be prepared: ${errorMessage(error)}`,
        [],
        {
          hint: 'create the folder and give the daemon read and write permission to it',
          cause: error,
        },
      );
    }
    prepared = true;
  }

  async function safely(kind: InboxKind, file: string, work: () => Promise<FileResult>) {
    try {
      return await work();
    } catch (error) {
      const reason = `could not handle the file: ${errorMessage(error)}; it is tried again next scan`;
      return { kind, file, status: 'failed', reason } satisfies FileResult;
    }
  }

  async function recover(kind: InboxKind): Promise<FileResult[]> {
    const results: FileResult[] = [];
    for (const file of await filesIn(layout.processing(kind))) {
      results.push(await safely(kind, file, () => handleClaimed(context, kind, file)));
      const marker = join(layout.kind(kind), `${file}${MARKER}`);
      if (options.doneMarker && !(await there(join(layout.kind(kind), file)))) {
        await unlink(marker).catch(() => undefined);
      }
    }
    return results;
  }

  async function unknownEntries(): Promise<string[]> {
    const names = (await readdir(layout.root)).filter(
      (n) => !n.startsWith('.') && !OUR_FOLDERS.has(n),
    );
    const fresh = names.filter((name) => !reportedUnknown.has(name)).sort(byName);
    for (const name of fresh) reportedUnknown.add(name);
    return fresh;
  }

  async function completeness(path: string): Promise<Completeness> {
    if (options.doneMarker) {
      return (await there(`${path}${MARKER}`))
        ? { ready: true }
        : { ready: false, reason: `no ${MARKER} marker yet` };
    }
    const { size, mtimeMs } = await stat(path);
    return tracker.check(path, { size, mtimeMs }, deps.clock.now().getTime());
  }

  /** Claims by rename, so the ERP and a second look never see the file half-handled. */
  async function take(kind: InboxKind, file: string, live: Set<string>): Promise<FileResult> {
    const path = join(layout.kind(kind), file);
    live.add(path);
    const complete = await completeness(path);
    if (!complete.ready) return { kind, file, status: 'waiting', reason: complete.reason };
    await rename(path, join(layout.processing(kind), file));
    tracker.forget(path);
    if (options.doneMarker) await unlink(`${path}${MARKER}`).catch(() => undefined);
    return handleClaimed(context, kind, file);
  }

  async function scan(): Promise<ScanReport> {
    await prepare();
    const results: FileResult[] = [];
    for (const kind of INBOX_KINDS) results.push(...(await recover(kind)));
    const unknown = await unknownEntries();
    const live = new Set<string>();
    for (const kind of INBOX_KINDS) {
      for (const file of (await filesIn(layout.kind(kind))).filter(isCandidate)) {
        const result = await safely(kind, file, () => take(kind, file, live));
        results.push(result);
      }
    }
    tracker.keepOnly(live);
    return scanReport(results, unknown);
  }

  return {
    scanOnce() {
      running ??= scan().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
