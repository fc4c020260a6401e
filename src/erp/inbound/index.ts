/**
 * The file inbox: each scan finishes what a crash left in `.processing`, then claims the
 * complete files of every kind folder (claim.ts, completeness.ts, entries.ts), reads each in its
 * format (read.ts), hands its messages to the store and archives it (handOff.ts), or sets it
 * aside in `.error/` with a report (setAside.ts); what a scan did is logged and counted
 * (scanReport.ts). The inbox's folders: folders.ts.
 */
export { createInbox, type Inbox, type InboxDeps } from './inbox.js';
export { readContext, readInboxFile, type InboxReadContext, type ReadDeps } from './read.js';
export { errorReportText } from './setAside.js';
export { ARCHIVE, ERROR, layoutOf, type InboxLayout } from './folders.js';
export { fileNameProblem } from './fileNames.js';
export type { Accept, Taken } from './handOff.js';
export {
  messageCounts,
  refusedRows,
  type CountInbound,
  type FileResult,
  type FileStatus,
  type FolderProblem,
  type ScanReport,
} from './scanReport.js';
export * from './options.js';
