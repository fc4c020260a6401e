import { mkdir, readdir } from 'node:fs/promises';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../log/index.js';
import { SetupError, errorMessage } from '../../shared/errors.js';
import { OPENTRANS_FOLDER, type InboxFolder } from '../messages/kinds.js';
import { claims, type Claims } from './claim.js';
import { byName, entriesOf } from './entries.js';
import { ARCHIVE, ERROR, PROCESSING, layoutOf, type InboxLayout } from './folders.js';
import type { Accept, HandleContext } from './handOff.js';
import { OddEntries } from './oddEntries.js';
import type { InboxOptions } from './options.js';
import { readContext, type ReadDeps } from './read.js';
import {
  logScan,
  scanReport,
  type CountInbound,
  type FileResult,
  type FolderProblem,
  type OddEntry,
  type ScanReport,
} from './scanReport.js';

export interface InboxDeps extends ReadDeps {
  clock: Clock;
  /** Stores a batch of a file's messages durably (one SQLite transaction), saying what each was. */
  accept: Accept;
  /** Where each scan's results go; tests that do not look at the log leave it out. */
  logger?: Logger;
  /** Counts the messages in `inbound_messages_total`. */
  count?: CountInbound;
}

export interface Inbox {
  /** One pass over every kind folder; never sleeps, never throws for a bad file. */
  scanOnce(): Promise<ScanReport>;
}

function errorPath(error: unknown): string | undefined {
  return error instanceof Error && 'path' in error && typeof error.path === 'string'
    ? error.path
    : undefined;
}

/** Runs one kind's part of a scan; a folder that fails it is a problem, not the end of the scan. */
async function kindProblem(
  layout: InboxLayout,
  kind: InboxFolder,
  work: () => Promise<unknown>,
): Promise<FolderProblem | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    const reason = `${errorMessage(error)}; make it a folder the daemon may read and write`;
    return { kind, path: errorPath(error) ?? layout.kind(kind), reason };
  }
}

async function prepareRoot(layout: InboxLayout): Promise<void> {
  try {
    await mkdir(layout.root, { recursive: true });
  } catch (error) {
    throw new SetupError(
      `ERP inbox ${layout.root} cannot be prepared: ${errorMessage(error)}`,
      [],
      {
        hint: 'create the folder and give the daemon read and write permission to it',
        cause: error,
      },
    );
  }
}

/** The news of a scan: what it finds that it has not logged before, once each. */
function scanNews(layout: InboxLayout, kindFolders: readonly InboxFolder[]) {
  const ours = new Set<string>([PROCESSING, ARCHIVE, ERROR, ...kindFolders]);
  const unknown = new Set<string>();
  /** Kind folder problems already logged, by path, with their reason. */
  const folders = new Map<string, string>();
  return {
    /** Entries of the inbox root that are no folder of it, not named before. */
    async unknownEntries(): Promise<string[]> {
      const names = (await readdir(layout.root)).filter((n) => !n.startsWith('.') && !ours.has(n));
      const fresh = names.filter((name) => !unknown.has(name)).sort(byName);
      for (const name of fresh) unknown.add(name);
      return fresh;
    },
    /** The problems not logged before; forgets the ones that went away. */
    folderProblems(problems: readonly FolderProblem[]): FolderProblem[] {
      const now = new Map(problems.map((p) => [p.path, p.reason]));
      for (const path of folders.keys()) if (!now.has(path)) folders.delete(path);
      const fresh = problems.filter((p) => folders.get(p.path) !== p.reason);
      for (const problem of fresh) folders.set(problem.path, problem.reason);
      return fresh;
    },
  };
}

/** Takes a kind's complete regular files; reports the entries that are none, once. */
async function takeKind(
  ctx: { layout: InboxLayout; claims: Claims; odd: OddEntries },
  kind: InboxFolder,
  found: OddEntry[],
): Promise<FileResult[]> {
  const { files, others } = await entriesOf(ctx.layout.kind(kind));
  found.push(...(await ctx.odd.fresh(kind, others)));
  const taken: FileResult[] = [];
  for (const file of files) taken.push(await ctx.claims.take(kind, file));
  return taken;
}

/**
 * The file-drop inbox. Each scan first finishes files a crash or a failed hand-off left in
 * `.processing`, then takes complete files from every kind folder in name order.
 */
export function createInbox(options: InboxOptions, deps: InboxDeps): Inbox {
  const layout = layoutOf(options.inbox);
  const kindFolders: readonly InboxFolder[] = [...deps.kinds.names, OPENTRANS_FOLDER];
  const ctx: HandleContext = {
    ...readContext(options, deps),
    options,
    layout,
    clock: deps.clock,
    accept: deps.accept,
  };
  const taking = { layout, claims: claims(ctx), odd: new OddEntries(ctx) };
  const news = scanNews(layout, kindFolders);
  let running: Promise<ScanReport> | undefined;

  async function scan(): Promise<ScanReport> {
    await prepareRoot(layout);
    const results: FileResult[] = [];
    const folders: FolderProblem[] = [];
    const usable: InboxFolder[] = [];
    for (const kind of kindFolders) {
      // The kind's folders are made when missing; a kind whose folder is unusable is skipped.
      const problem = await kindProblem(layout, kind, async () => {
        await mkdir(layout.kind(kind), { recursive: true });
        await mkdir(layout.processing(kind), { recursive: true });
        results.push(...(await taking.claims.recover(kind)));
      });
      if (problem) folders.push(problem);
      else usable.push(kind);
    }
    const unknown = await news.unknownEntries();
    const found: OddEntry[] = [];
    for (const kind of usable) {
      const problem = await kindProblem(layout, kind, async () => {
        results.push(...(await takeKind(taking, kind, found)));
      });
      if (problem) folders.push(problem);
    }
    taking.claims.forgetGone();
    const report = scanReport(results, unknown, folders, found);
    if (deps.logger) {
      const fresh = { unknown, folders: news.folderProblems(folders) };
      logScan(deps.logger, deps.count, report, fresh);
    }
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
