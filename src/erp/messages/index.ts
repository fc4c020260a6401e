/**
 * What an ERP message is, whether it comes in a file or by `POST /erp/<kind>`: the push-back
 * kinds the inbox is given as data (kinds.ts: name, schema, default layout, business key), how a
 * message is checked against its kind (check.ts, fields.ts, within bounds.ts), what makes it the
 * one it is (identity.ts, stamp.ts), the rows of one business key merged into one message
 * (merge.ts), the orders a message names (orders.ts), and each kind's layout of its files
 * (layouts.ts).
 */
export {
  checkMessage,
  DEFAULT_INBOUND_RULES,
  inboxProblems,
  parseInboxBody,
  type InboundRules,
  type InboxParse,
  type MessageCheck,
} from './check.js';
export {
  ARTICLE_CSV,
  CSV_BY_FIELD_NAMES,
  inboxKinds,
  OPENTRANS_FOLDER,
  type DefaultLayout,
  type FormatKind,
  type InboxFolder,
  type InboxKind,
  type InboxKindSpec,
  type InboxKinds,
  type InboxSchema,
} from './kinds.js';
export { UNKNOWN_FIELDS, type UnknownFields } from './fields.js';
export { droppedFieldsLog, type DroppedFields } from './droppedFields.js';
export { problemText, type Problem } from './problems.js';
export type { KnownOrder, OrderLookup, OrderReferences } from './orders.js';
export { inboxMappingProblems, inboxMappings, type InboxMappingOptions } from './layouts.js';
export { contentHash, inboxMessage, rowsName } from './identity.js';
export { ERP_STAMP } from './stamp.js';
export { mergeByKey, oneMessagePerKey, type RowMessage } from './merge.js';
export * from './bounds.js';
