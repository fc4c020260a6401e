import type { Logger } from '../../log/index.js';
import type { OddEntry } from './oddEntries.js';
import type { Problem } from '../messages/problems.js';
import type { CountInbound, FileResult, FolderProblem, ScanReport } from './scanReport.js';

/** How many rows (or records) of a file its problems name: each is one refused row. */
export function refusedRows(problems: readonly Problem[]): number {
  return new Set(problems.map((p) => p.row ?? p.line ?? p.element)).size;
}

/** What became of a file's messages and rows, for a person: `2 accepted, 1 repeat, …`. */
export function messageCounts(counts: {
  accepted: number;
  repeat: number;
  overtaken: number;
  refused: number;
}): string {
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
  logger.warn(
    { kind: entry.kind, file: entry.name, entry: entry.what, report: entry.report },
    `inbox: ${entry.kind}/${entry.name} is ${entry.reason}; see ${entry.report}`,
  );
  count?.(
    { kind: entry.kind, source: 'file', result: 'rejected' },
    1,
    `${entry.kind}/${entry.name}`,
  );
}

/** Counts each file's messages in `inbound_messages_total`. */
function countFile(count: CountInbound, result: FileResult): void {
  const labels = { kind: result.kind, source: 'file' } as const;
  const file = `${result.kind}/${result.file}`;
  if (result.status === 'rejected') count({ ...labels, result: 'rejected' }, 1, file);
  if (result.status === 'partial') {
    count({ ...labels, result: 'rejected' }, refusedRows(result.problems), file);
  }
  if (result.status === 'accepted' || result.status === 'repeat' || result.status === 'partial') {
    count({ ...labels, result: 'accepted' }, result.accepted);
    count({ ...labels, result: 'repeat' }, result.repeat);
    count({ ...labels, result: 'overtaken' }, result.overtaken);
  }
}

export interface ScanNews {
  /** Unknown root entries not named before. */
  unknown: string[];
  /** Kind folder problems not reported before. */
  folders: FolderProblem[];
}

/**
 * Logs a scan: each file that was taken (rejected ones at warn, with the reason), one summary
 * line, and unknown entries and unusable kind folders the first time they appear, so that a
 * scan every few seconds does not repeat the same warning all day.
 */
export function logScan(
  logger: Logger,
  count: CountInbound | undefined,
  report: ScanReport,
  news: ScanNews,
): void {
  for (const result of report.files) {
    logFile(logger, result);
    if (count) countFile(count, result);
  }
  for (const entry of report.odd) logOdd(logger, count, entry);
  for (const problem of news.folders) {
    logger.warn(
      { kind: problem.kind, folder: problem.path, reason: problem.reason },
      `inbox folder ${problem.path} cannot be used; files of kind ${problem.kind} are not read until it is a readable folder again`,
    );
  }
  if (news.unknown.length > 0) {
    logger.warn(
      { unknown: news.unknown },
      `the inbox holds entries that are no inbox kind and are not read: ${news.unknown.join(', ')}`,
    );
  }
  const { waiting, ...done } = report.counts;
  const busy = Object.values(done).some((n) => n > 0);
  if (busy) logger.info({ counts: report.counts }, 'inbox scanned');
  else logger.debug({ waiting }, 'inbox scanned');
}
