/**
 * What one scan did with each file, and how a scan is told: logged (each file taken, one summary
 * line, what lasts across scans as states) and counted in `inbound_messages_total`.
 */
import { stateLog, type Logger } from '../../log/index.js';
import type { InboxFolder } from '../messages/kinds.js';
import type { Problem } from '../messages/problems.js';

/** An entry of a kind folder that is no regular file: reported once, never opened or moved. */
export interface OddEntry {
  kind: InboxFolder;
  name: string;
  /** "a directory", "a FIFO (named pipe)", "a symbolic link", ... */
  what: string;
  reason: string;
  report: string;
}

/** Messages queued, seen before, and refused for a newer one of their entity. */
interface Taken {
  accepted: number;
  repeat: number;
  overtaken: number;
  movedTo: string;
}

/** What one scan did with one file. */
export type FileResult = { kind: InboxFolder; file: string } &
  /** `notes`: what an openTRANS answer says that is not written to the platform: logged. */
  (
    | ({ status: 'accepted' | 'repeat'; notes?: string[] } & Taken)
    /** A file of which some rows went through; the bad rows are in `report`. */
    | ({ status: 'partial'; problems: Problem[]; report: string } & Taken)
    | { status: 'rejected'; reason: string; problems: Problem[]; movedTo: string; report: string }
    /** Not complete yet; looked at again next scan. */
    | { status: 'waiting'; reason: string }
    /** Handing over failed (e.g. the database was busy); it stays in .processing for next scan. */
    | { status: 'failed'; reason: string }
  );

type FileStatus = FileResult['status'];

/** A kind folder the scan could not use (a plain file in its place, no permission): skipped. */
export interface FolderProblem {
  kind: InboxFolder;
  path: string;
  reason: string;
}

export interface ScanReport {
  counts: Record<FileStatus, number>;
  files: FileResult[];
  /** Folders and files in the inbox root that are no inbox kind, sorted. */
  unknown: string[];
  folders: FolderProblem[];
  /** Entries of kind folders that are no regular file, reported this scan (each only once). */
  odd: OddEntry[];
}

/**
 * How `inbound_messages_total` is counted: one call per outcome with the number of messages;
 * a refused file names itself (`<kind>/<file>`), for the alerts' digest of refusals.
 */
export type CountInbound = (
  labels: { kind: InboxFolder; source: 'file' | 'http'; result: InboundResult },
  messages: number,
  file?: string,
) => void;
type InboundResult = 'accepted' | 'repeat' | 'overtaken' | 'rejected';

export function scanReport(
  files: FileResult[],
  unknown: string[],
  folders: FolderProblem[],
  odd: OddEntry[] = [],
): ScanReport {
  const counts = { accepted: 0, repeat: 0, partial: 0, rejected: 0, waiting: 0, failed: 0 };
  for (const file of files) counts[file.status] += 1;
  return { counts, files, unknown, folders, odd };
}

/** How many rows (or records) of a file its problems name: each is one refused row. */
export function refusedRows(problems: readonly Problem[]): number {
  return new Set(problems.map((p) => p.row ?? p.line ?? p.element)).size;
}

/** What became of a file's messages and rows, for a person: `2 accepted, 1 repeat, …`. */
export function messageCounts(counts: Omit<Taken, 'movedTo'> & { refused: number }): string {
  const parts = [`${counts.accepted} accepted`];
  if (counts.repeat > 0) parts.push(`${counts.repeat} seen before`);
  if (counts.overtaken > 0) parts.push(`${counts.overtaken} refused as overtaken`);
  if (counts.refused > 0) parts.push(`${counts.refused} row(s) refused`);
  return parts.join(', ');
}

/**
 * Says what one file's look came to. File names are logged under `file`: they are the ERP's
 * names for its messages, not personal data, and a person needs them to find the file.
 */
function logFile(logger: Logger, result: FileResult): void {
  const where = { kind: result.kind, file: result.file };
  const path = `inbox: ${result.kind}/${result.file}`;
  switch (result.status) {
    case 'accepted':
    case 'repeat': {
      const { accepted, repeat, overtaken, movedTo } = result;
      const counts = { accepted, repeat, overtaken, refused: 0 };
      const text =
        result.status === 'repeat' ? `${path} seen before; archived` : `${path} archived`;
      logger.info({ ...where, ...counts, movedTo }, `${text}: ${messageCounts(counts)}`);
      // What an openTRANS answer says beyond what is written (changed lines, a part shipment):
      // reported here, never written to the order, so someone can act on it.
      if (result.notes !== undefined && result.notes.length > 0) {
        logger.info(
          { ...where, notes: result.notes },
          `${path} says what is not written to the platform: ${result.notes.join('; ')}`,
        );
      }
      return;
    }
    case 'partial': {
      const { accepted, repeat, overtaken } = result;
      const counts = { accepted, repeat, overtaken, refused: refusedRows(result.problems) };
      logger.warn(
        { ...where, ...counts, problems: result.problems.length, report: result.report },
        `${path} archived: ${messageCounts(counts)}; see ${result.report}`,
      );
      return;
    }
    case 'rejected':
      logger.warn(
        { ...where, reason: result.reason, movedTo: result.movedTo, report: result.report },
        `${path} rejected: ${result.reason}; see ${result.report}`,
      );
      return;
    case 'failed':
      logger.warn(
        { ...where, reason: result.reason },
        `${path} not handled this scan: ${result.reason}`,
      );
      return;
    case 'waiting':
      logger.debug({ ...where, reason: result.reason }, `${path} not complete yet`);
  }
}

/**
 * An entry that is no regular file, the first time it is seen: at warn, and counted as one
 * rejected message, as a refused file is, so that the alert on refusals sees it too.
 */
function logOdd(logger: Logger, count: CountInbound | undefined, entry: OddEntry): void {
  const { kind, name, what, reason, report } = entry;
  logger.warn(
    { kind, file: name, entry: what, report },
    `inbox: ${kind}/${name} is ${reason}; see ${report}`,
  );
  count?.({ kind, source: 'file', result: 'rejected' }, 1, `${kind}/${name}`);
}

/** Counts each file's messages in `inbound_messages_total`. */
function countFile(count: CountInbound, result: FileResult): void {
  const labels = { kind: result.kind, source: 'file' } as const;
  const file = `${result.kind}/${result.file}`;
  if (result.status === 'rejected') count({ ...labels, result: 'rejected' }, 1, file);
  if (result.status === 'partial') {
    count({ ...labels, result: 'rejected' }, refusedRows(result.problems), file);
  }
  if ('accepted' in result) {
    for (const taken of ['accepted', 'repeat', 'overtaken'] as const) {
      count({ ...labels, result: taken }, result[taken]);
    }
  }
}

/** Logs a scan: each file that was taken (rejected ones at warn, with the reason), and one summary line. */
export function logScan(logger: Logger, count: CountInbound | undefined, report: ScanReport): void {
  for (const result of report.files) {
    logFile(logger, result);
    if (count) countFile(count, result);
  }
  for (const entry of report.odd) logOdd(logger, count, entry);
  const { waiting, ...done } = report.counts;
  const busy = Object.values(done).some((n) => n > 0);
  if (busy) logger.info({ counts: report.counts }, 'inbox scanned');
  else logger.debug({ waiting }, 'inbox scanned');
}

/**
 * What lasts across scans, as states of the log: a kind folder that cannot be used, an entry of
 * the inbox root that is no inbox kind. One warning when it appears, a summary while it stays,
 * one line at info when it is gone, so that a scan every few seconds does not repeat the same
 * warning all day. Told each scan's report.
 */
export function scanStates(logger: Logger, now: () => number): (report: ScanReport) => void {
  const kindOf = new Map<string, InboxFolder>();
  const folders = stateLog({
    logger,
    now,
    lines: (path) => {
      const kind = kindOf.get(path);
      return {
        down: (_state, again) =>
          `${again ? 'still: ' : ''}inbox folder ${path} cannot be used; files of kind ${kind} are not read until it is a readable folder again`,
        back: () => `inbox folder ${path} can be used again; files of kind ${kind} are read`,
        fields: { kind, folder: path },
      };
    },
  });
  const entries = stateLog({
    logger,
    now,
    causeField: 'entry',
    lines: (name) => ({
      down: (_state, again) =>
        `${again ? 'still: ' : ''}the inbox holds ${name}, which is no inbox kind and is not read`,
      back: () => `the inbox holds ${name} no more`,
    }),
  });
  const unknown = new Set<string>();
  return (report) => {
    for (const path of kindOf.keys()) {
      if (report.folders.some((p) => p.path === path)) continue;
      folders.ends(path);
      kindOf.delete(path);
    }
    for (const { kind, path, reason } of report.folders) {
      kindOf.set(path, kind);
      folders.holds({ cause: path, member: path, problem: reason, fields: { reason } });
    }
    for (const name of unknown) {
      if (report.unknown.includes(name)) continue;
      entries.ends(name);
      unknown.delete(name);
    }
    for (const name of report.unknown) {
      unknown.add(name);
      entries.holds({ cause: name, member: name, problem: name });
    }
  };
}
