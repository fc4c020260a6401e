export { createInbox, readContext, type Inbox, type InboxDeps } from './inbox.js';
export { errorReportText, readInboxFile } from './handOff.js';
export type { FileMessages, ReadContext } from '../formats/format.js';
export { ARCHIVE, ERROR, OPENTRANS_FOLDER, layoutOf, type InboxLayout } from './folders.js';
export {
  checkMessage,
  DEFAULT_INBOUND_RULES,
  inboxProblems,
  parseInboxBody,
  type InboundRules,
  type InboxParse,
  type MessageCheck,
} from '../messages/check.js';
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
} from '../messages/kinds.js';
export { UNKNOWN_FIELDS, type UnknownFields } from '../messages/fields.js';
export { droppedFieldsLog, type DroppedFields } from '../messages/droppedFields.js';
export { parseArticleCsv, type ArticleCsv, type ArticleRow } from '../formats/csv/article.js';
export { fileNameProblem } from './fileNames.js';
export type { Accept, Taken } from './handOff.js';
export type {
  CountInbound,
  FileResult,
  FileStatus,
  FolderProblem,
  ScanReport,
} from './scanReport.js';
export type { Problem } from '../messages/problems.js';
export type { KnownOrder, OrderLookup } from '../formats/openTrans/answer.js';
export * from './options.js';
export {
  inboxMappingProblems,
  inboxMappings,
  type InboxMappingOptions,
} from '../messages/layouts.js';
export type { OrderReferences } from '../messages/orders.js';
export { contentHash, inboxMessage, rowsName } from '../messages/identity.js';
export { ERP_STAMP } from '../messages/stamp.js';
export { messageCounts, refusedRows } from './scanLog.js';
