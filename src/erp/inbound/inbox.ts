import type { Dirent } from 'node:fs';
import { access, lstat, mkdir, readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../log/index.js';
import { SetupError, errorMessage } from '../../shared/errors.js';
import { CompletenessTracker, type Completeness } from './completeness.js';
import { droppedFieldsLog, type DroppedFields } from '../messages/droppedFields.js';
import { handleClaimed, type Accept, type HandleContext } from './handOff.js';
import type { ReadContext } from '../formats/format.js';
import type { InboxKinds } from '../messages/kinds.js';
import {
  ARCHIVE,
  ERROR,
  OPENTRANS_FOLDER,
  PROCESSING,
  layoutOf,
  type InboxFolder,
} from './folders.js';
import { refuseLinked } from './hardLinks.js';
import { OddEntries, type OddEntry } from './oddEntries.js';
import type { InboxOptions } from './options.js';
import {
  scanReport,
  type CountInbound,
  type FileResult,
  type FolderProblem,
  type ScanReport,
} from './scanReport.js';
import type { OpenTransOptions, OrderLookup } from '../formats/openTrans/answer.js';
import { logScan } from './scanLog.js';
import { inboxMappings } from '../messages/layouts.js';
import { DEFAULT_CSV_OPTIONS } from '../outbound/file/options.js';
import type { OrderReferences } from '../messages/orders.js';
import {
  markerThere,
  refuseUndecodable,
  undecodableFiles,
  type UndecodableFile,
} from './undecodable.js';

export interface InboxDeps {
  clock: Clock;
  /** The push-back kinds: one folder each, and how its messages are checked. */
  kinds: InboxKinds;
  /** Stores a batch of a file's messages durably (one SQLite transaction), saying what each was. */
  accept: Accept;
  /** Where each scan's results go; tests that do not look at the log leave it out. */
  logger?: Logger;
  /** Counts the messages in `inbound_messages_total`. */
  count?: CountInbound;
  /** Told of fields left out with `unknownFields: drop`; else they are logged on `logger`. */
  dropped?: DroppedFields;
  /**
   * The order an openTRANS answer names, from the mirror. Given, an answer naming an order the
   * daemon does not know is set aside, and lines are compared with the order; without it, an
   * answer is taken as it names its orders.
   */
  openTransOrder?: OrderLookup;
  /** The orders of the mirror with a salesId: whom a mapped order status row names by it. */
  ordersBySalesId?: NonNullable<OrderReferences['bySalesId']>;
}

export interface Inbox {
  /** One pass over every kind folder; never sleeps, never throws for a bad file. */
  scanOnce(): Promise<ScanReport>;
}

const MARKER = '.done';

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Hidden files are the ERP's own temp files; a name starting with `..` is read and refused. */
const isCandidate = (name: string) =>
  (!name.startsWith('.') || name.startsWith('..')) && !name.endsWith(MARKER);

async function entriesIn(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => byName(a.name, b.name));
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
}

/** Regular files only; `readdir` tells a link from its target, so no link is followed. */
const filesIn = async (dir: string) =>
  (await entriesIn(dir)).filter((e) => e.isFile()).map((e) => e.name);

function errorPath(error: unknown): string | undefined {
  return error instanceof Error && 'path' in error && typeof error.path === 'string'
    ? error.path
    : undefined;
}

function folderProblem(kind: InboxFolder, error: unknown, folder: string): FolderProblem {
  return {
    kind,
    path: errorPath(error) ?? folder,
    reason: `${errorMessage(error)}; make it a folder the daemon may read and write`,
  };
}

const there = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

function openTransOptions(
  options: InboxOptions,
  deps: Pick<InboxDeps, 'openTransOrder'>,
): OpenTransOptions {
  return {
    ...(options.trackingLinkTemplate === undefined
      ? {}
      : { trackingLinkTemplate: options.trackingLinkTemplate }),
    ...(deps.openTransOrder === undefined ? {} : { orderOf: deps.openTransOrder }),
  };
}

/** How a file is read and checked: by the inbox's scans, and where it lies (`inbox replay`). */
export function readContext(
  options: InboxOptions,
  deps: Pick<InboxDeps, 'kinds' | 'logger' | 'dropped' | 'openTransOrder' | 'ordersBySalesId'>,
): ReadContext {
  const dropped = deps.dropped ?? (deps.logger && droppedFieldsLog(deps.logger));
  // Built (and checked against the kinds) once: a mapping that does not fit stops the start.
  const mappings = inboxMappings(
    {
      mapping: options.mapping,
      valueTables: options.valueTables,
      timeZone: options.csv.timeZone ?? DEFAULT_CSV_OPTIONS.timeZone,
      decimalComma: options.csv.decimalComma,
    },
    deps.kinds,
  );
  return {
    options,
    kinds: deps.kinds,
    ...(dropped === undefined ? {} : { dropped }),
    openTrans: openTransOptions(options, deps),
    mappings,
    ...(deps.ordersBySalesId === undefined ? {} : { orders: { bySalesId: deps.ordersBySalesId } }),
  };
}

/**
 * The file-drop inbox. Each scan first finishes files a crash or a failed hand-off left in
 * `.processing`, then takes complete files from every kind folder in name order.
 */
export function createInbox(options: InboxOptions, deps: InboxDeps): Inbox {
  const layout = layoutOf(options.inbox);
  const kindFolders: readonly InboxFolder[] = [...deps.kinds.names, OPENTRANS_FOLDER];
  const ourFolders = new Set<string>([PROCESSING, ARCHIVE, ERROR, ...kindFolders]);
  const context: HandleContext = {
    layout,
    clock: deps.clock,
    accept: deps.accept,
    ...readContext(options, deps),
  };
  const tracker = new CompletenessTracker(options.minFileAgeMs);
  const odd = new OddEntries(layout, deps.clock, options.fileMode);
  const reportedUnknown = new Set<string>();
  /** Kind folder problems already logged, by path, with their reason. */
  const reportedFolders = new Map<string, string>();
  let running: Promise<ScanReport> | undefined;

  async function prepareRoot(): Promise<void> {
    try {
      await mkdir(layout.root, { recursive: true });
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
  }

  /** Creates the kind's folders when missing; a kind whose folder is unusable is skipped. */
  async function prepareKind(kind: InboxFolder): Promise<FolderProblem | undefined> {
    try {
      await mkdir(layout.kind(kind), { recursive: true });
      await mkdir(layout.processing(kind), { recursive: true });
      return undefined;
    } catch (error) {
      return folderProblem(kind, error, layout.kind(kind));
    }
  }

  /** Runs one kind's part of a scan; a folder that fails it is a problem, not the end of the scan. */
  async function kindProblem(
    kind: InboxFolder,
    results: FileResult[],
    work: (kind: InboxFolder) => Promise<FileResult[]>,
  ): Promise<FolderProblem | undefined> {
    try {
      results.push(...(await work(kind)));
      return undefined;
    } catch (error) {
      return folderProblem(kind, error, layout.kind(kind));
    }
  }

  async function safely(kind: InboxFolder, file: string, work: () => Promise<FileResult>) {
    try {
      return await work();
    } catch (error) {
      const reason = `could not handle the file: ${errorMessage(error)}; it is tried again next scan`;
      return { kind, file, status: 'failed', reason } satisfies FileResult;
    }
  }

  async function recover(kind: InboxFolder): Promise<FileResult[]> {
    const results: FileResult[] = [];
    for (const file of await filesIn(layout.processing(kind))) {
      results.push(await safely(kind, file, () => claimed(kind, file)));
      const marker = join(layout.kind(kind), `${file}${MARKER}`);
      if (options.doneMarker && !(await there(join(layout.kind(kind), file)))) {
        await unlink(marker).catch(() => undefined);
      }
    }
    return results;
  }

  async function unknownEntries(): Promise<string[]> {
    const names = (await readdir(layout.root)).filter(
      (n) => !n.startsWith('.') && !ourFolders.has(n),
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
    const { size, mtimeMs } = await lstat(path);
    return tracker.check(path, { size, mtimeMs }, deps.clock.now().getTime());
  }

  /** Claims by rename, so the ERP and a second look never see the file half-handled. */
  async function take(kind: InboxFolder, file: string, live: Set<string>): Promise<FileResult> {
    const path = join(layout.kind(kind), file);
    live.add(path);
    const complete = await completeness(path);
    if (!complete.ready) return { kind, file, status: 'waiting', reason: complete.reason };
    await rename(path, join(layout.processing(kind), file));
    tracker.forget(path);
    if (options.doneMarker) await unlink(`${path}${MARKER}`).catch(() => undefined);
    return claimed(kind, file);
  }

  /** A claimed file is checked for hard links before anything reads it or sets its mode. */
  async function claimed(kind: InboxFolder, file: string): Promise<FileResult> {
    return (await refuseLinked(context, kind, file)) ?? handleClaimed(context, kind, file);
  }

  /** As `completeness`, for a file reached only by the bytes of its name. */
  async function nameCompleteness(file: UndecodableFile): Promise<Completeness> {
    if (options.doneMarker) {
      return (await markerThere(file))
        ? { ready: true }
        : { ready: false, reason: `no ${MARKER} marker yet` };
    }
    const { size, mtimeMs } = await lstat(file.path);
    return tracker.check(file.key, { size, mtimeMs }, deps.clock.now().getTime());
  }

  /**
   * A file whose name is not valid UTF-8 cannot be claimed like the others (no string path
   * reaches it): once as complete as any file must be, it goes to `.error/` unread, with a report.
   */
  async function refuseName(
    kind: InboxFolder,
    file: UndecodableFile,
    live: Set<string>,
  ): Promise<FileResult> {
    live.add(file.key);
    const complete = await nameCompleteness(file);
    if (!complete.ready)
      return { kind, file: file.lossy, status: 'waiting', reason: complete.reason };
    tracker.forget(file.key);
    const refused = await refuseUndecodable(layout, options, deps.clock.now(), kind, file);
    if (options.doneMarker) {
      await unlink(Buffer.concat([file.path, Buffer.from(MARKER)])).catch(() => undefined);
    }
    return refused;
  }

  /** Takes the kind's complete regular files; reports the entries that are none, once. */
  async function takeKind(kind: InboxFolder, live: Set<string>, found: OddEntry[]) {
    const undecodable = await undecodableFiles(layout.kind(kind));
    // Their names as read (U+FFFD for the bad bytes) reach no file: they are handled by bytes.
    const lossy = new Set(undecodable.map((file) => file.lossy));
    const entries = (await entriesIn(layout.kind(kind))).filter(
      (e) => isCandidate(e.name) && !lossy.has(e.name),
    );
    const others = entries.filter((e) => !e.isFile()).map((e) => e.name);
    found.push(...(await odd.fresh(kind, others)));
    const taken: FileResult[] = [];
    for (const entry of entries.filter((e) => e.isFile())) {
      taken.push(await safely(kind, entry.name, () => take(kind, entry.name, live)));
    }
    for (const file of undecodable) {
      taken.push(await safely(kind, file.lossy, () => refuseName(kind, file, live)));
    }
    return taken;
  }

  /** The problems not logged before; forgets the ones that went away. */
  function freshFolderProblems(problems: readonly FolderProblem[]): FolderProblem[] {
    const now = new Map(problems.map((p) => [p.path, p.reason]));
    for (const path of reportedFolders.keys()) if (!now.has(path)) reportedFolders.delete(path);
    const fresh = problems.filter((p) => reportedFolders.get(p.path) !== p.reason);
    for (const problem of fresh) reportedFolders.set(problem.path, problem.reason);
    return fresh;
  }

  async function scan(): Promise<ScanReport> {
    await prepareRoot();
    const results: FileResult[] = [];
    const folders: FolderProblem[] = [];
    const usable: InboxFolder[] = [];
    for (const kind of kindFolders) {
      const problem = (await prepareKind(kind)) ?? (await kindProblem(kind, results, recover));
      if (problem) folders.push(problem);
      else usable.push(kind);
    }
    const unknown = await unknownEntries();
    const live = new Set<string>();
    const found: OddEntry[] = [];
    for (const kind of usable) {
      const problem = await kindProblem(kind, results, (k) => takeKind(k, live, found));
      if (problem) folders.push(problem);
    }
    tracker.keepOnly(live);
    const report = scanReport(results, unknown, folders, found);
    if (deps.logger)
      logScan(deps.logger, deps.count, report, { unknown, folders: freshFolderProblems(folders) });
    return report;
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
