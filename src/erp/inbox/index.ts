export { createInbox, readContext, type Inbox, type InboxDeps } from './scanner.js';
export { errorReportText, readInboxFile } from './handle.js';
export type { FileMessages, ReadContext } from './readContext.js';
export { ARCHIVE, ERROR, OPENTRANS_FOLDER, layoutOf, type InboxLayout } from './layout.js';
export {
  checkMessage,
  DEFAULT_INBOUND_RULES,
  inboxProblems,
  parseInboxBody,
  type InboundRules,
  type InboxParse,
  type MessageCheck,
} from './validate.js';
export {
  ARTICLE_CSV,
  CSV_BY_FIELD_NAMES,
  inboxKinds,
  type DefaultLayout,
  type FormatKind,
  type InboxKind,
  type InboxKindSpec,
  type InboxKinds,
  type InboxSchema,
} from './kinds.js';
export { UNKNOWN_FIELDS, type UnknownFields } from './fields.js';
export { droppedFieldsLog, type DroppedFields } from './droppedFields.js';
export { parseArticleCsv, type ArticleCsv, type ArticleRow } from './articleCsv.js';
export { fileNameProblem } from './checks.js';
export type { Accept, Taken } from './handle.js';
export type { CountInbound, FileResult, FileStatus, FolderProblem, ScanReport } from './report.js';
export type { Problem } from './problems.js';
export type { KnownOrder, OrderLookup } from './openTrans/answer.js';
export * from './options.js';
export { inboxMappingProblems, inboxMappings, type InboxMappingOptions } from './mappings.js';
export type { OrderReferences } from './mappedOrders.js';
export { contentHash, inboxMessage, rowsName } from './identity.js';
export { ERP_STAMP } from './stamp.js';
export { messageCounts, refusedRows } from './scanLog.js';
