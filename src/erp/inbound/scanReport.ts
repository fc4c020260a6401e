import type { InboxFolder } from './folders.js';
import type { OddEntry } from './oddEntries.js';
import type { Problem } from '../messages/problems.js';

/** What one scan did with one file. */
export type FileResult = { kind: InboxFolder; file: string } & (
  | {
      status: 'accepted' | 'repeat';
      /** Messages queued, seen before, and refused for a newer one of their entity. */
      accepted: number;
      repeat: number;
      overtaken: number;
      movedTo: string;
      /** What an openTRANS answer says that is not written to the platform: logged. */
      notes?: string[];
    }
  /** A file of which some rows went through; the bad rows are in `report`. */
  | {
      status: 'partial';
      accepted: number;
      repeat: number;
      overtaken: number;
      problems: Problem[];
      movedTo: string;
      report: string;
    }
  | { status: 'rejected'; reason: string; problems: Problem[]; movedTo: string; report: string }
  /** Not complete yet; looked at again next scan. */
  | { status: 'waiting'; reason: string }
  /** Handing over failed (e.g. the database was busy); it stays in .processing for next scan. */
  | { status: 'failed'; reason: string }
);

export type FileStatus = FileResult['status'];

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
  labels: {
    kind: InboxFolder;
    source: 'file' | 'http';
    result: 'accepted' | 'repeat' | 'overtaken' | 'rejected';
  },
  messages: number,
  file?: string,
) => void;

export function scanReport(
  files: FileResult[],
  unknown: string[],
  folders: FolderProblem[],
  odd: OddEntry[] = [],
): ScanReport {
  const counts: Record<FileStatus, number> = {
    accepted: 0,
    repeat: 0,
    partial: 0,
    rejected: 0,
    waiting: 0,
    failed: 0,
  };
  for (const file of files) counts[file.status] += 1;
  return { counts, files, unknown, folders, odd };
}
