export { createInbox, type Inbox, type InboxDeps } from './scanner.js';
export { parseInboxBody, inboxProblems, type InboxParse } from './schemas.js';
export { parseArticleCsv, type ArticleCsv, type ArticleRow } from './articleCsv.js';
export { fileNameProblem } from './checks.js';
export type { Accept } from './handle.js';
export type { CountInbound, FileResult, FileStatus, FolderProblem, ScanReport } from './report.js';
export type { Problem } from './problems.js';
export * from './options.js';
