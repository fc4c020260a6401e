import { mkdir, readdir } from 'node:fs/promises';
import type { Clock } from '../../shared/clock.js';
import type { Logger } from '../../log/index.js';
import { SetupError, errorMessage } from '../../shared/errors.js';
import { makeFolders } from '../../shared/folders.js';
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
  scanStates,
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

const errorPath = (error: unknown): string | undefined =>
  error instanceof Error && 'path' in error && typeof error.path === 'string'
    ? error.path
    : undefined;

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
    await makeFolders(mkdir, layout.root);
  } catch (error) {
    const hint = 'create the folder and give the daemon read and write permission to it';
    const message = `ERP inbox ${layout.root} cannot be prepared: ${errorMessage(error)}`;
    throw new SetupError(message, [], { hint, cause: error });
  }
}

/** Entries of the inbox root that are no folder of it, sorted. */
async function unknownEntries(layout: InboxLayout, ours: ReadonlySet<string>): Promise<string[]> {
  const names = await readdir(layout.root);
  return names.filter((n) => !n.startsWith('.') && !ours.has(n)).sort(byName);
}

/** What a scan works with, made once per inbox. */
interface Scanner {
  layout: InboxLayout;
  /** The kinds' folders and openTRANS's. */
  folders: readonly InboxFolder[];
  claims: Claims;
  odd: OddEntries;
  /** The inbox's own folders: the rest of the root is unknown. */
  ours: ReadonlySet<string>;
  /** Tells the log what lasts across scans (scanStates); none without a logger. */
  states: ((report: ScanReport) => void) | undefined;
  deps: InboxDeps;
}

/**
 * Finishes what a crash or a failed hand-off left in each folder's `.processing`, making the
 * folders when missing; the folders that can be used, the others as problems.
 */
async function recoverAll(s: Scanner, results: FileResult[], problems: FolderProblem[]) {
  const usable: InboxFolder[] = [];
  for (const kind of s.folders) {
    const problem = await kindProblem(s.layout, kind, async () => {
      await makeFolders(mkdir, s.layout.kind(kind));
      await makeFolders(mkdir, s.layout.processing(kind));
      results.push(...(await s.claims.recover(kind)));
    });
    if (problem) problems.push(problem);
    else usable.push(kind);
  }
  return usable;
}

/** Takes each folder's complete regular files in name order; the entries that are none, once. */
async function takeAll(
  s: Scanner,
  usable: readonly InboxFolder[],
  results: FileResult[],
  problems: FolderProblem[],
): Promise<OddEntry[]> {
  const odd: OddEntry[] = [];
  for (const kind of usable) {
    const problem = await kindProblem(s.layout, kind, async () => {
      const { files, others } = await entriesOf(s.layout.kind(kind));
      odd.push(...(await s.odd.fresh(kind, others)));
      for (const file of files) results.push(await s.claims.take(kind, file));
    });
    if (problem) problems.push(problem);
  }
  return odd;
}

async function scan(s: Scanner): Promise<ScanReport> {
  await prepareRoot(s.layout);
  const results: FileResult[] = [];
  const problems: FolderProblem[] = [];
  const usable = await recoverAll(s, results, problems);
  const unknown = await unknownEntries(s.layout, s.ours);
  const odd = await takeAll(s, usable, results, problems);
  s.claims.forgetGone();
  const report = scanReport(results, unknown, problems, odd);
  const { logger, count } = s.deps;
  if (logger) logScan(logger, count, report);
  s.states?.(report);
  return report;
}

/** The file-drop inbox; one scan at a time (a second call while one runs gets that one). */
export function createInbox(options: InboxOptions, deps: InboxDeps): Inbox {
  const layout = layoutOf(options.inbox);
  const folders = [...deps.kinds.names, OPENTRANS_FOLDER];
  const { clock, accept } = deps;
  const ctx: HandleContext = { ...readContext(options, deps), options, layout, clock, accept };
  const claimed = claims(ctx);
  const odd = new OddEntries(ctx);
  const ours = new Set<string>([PROCESSING, ARCHIVE, ERROR, ...folders]);
  const now = () => clock.now().getTime();
  const states = deps.logger && scanStates(deps.logger, now);
  const scanner = { layout, folders, claims: claimed, odd, ours, states, deps };
  let running: Promise<ScanReport> | undefined;
  return {
    scanOnce() {
      running ??= scan(scanner).finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}
