import {
  mapRecord,
  type InboundMapping,
  type InputRecord,
  type MappedMessage,
} from '../mapping/index.js';
import { MAX_XML_BYTES } from '../messages/bounds.js';
import type { UnknownFields } from '../messages/fields.js';
import type { FileMessages, ReadContext } from './format.js';
import type { InboxKind } from '../messages/kinds.js';
import type { InboxFolder } from '../inbound/folders.js';
import { csvRecords } from './csv/read.js';
import { withOrderReference, type OrderReferences } from '../messages/orders.js';
import { mappedText } from './text.js';
import { foreignElements, xmlRecords } from './xml/read.js';
import { inboxMessage, rowsName } from '../messages/identity.js';
import { oneMessagePerKey, type RowMessage } from '../messages/merge.js';
import { listedProblems } from '../messages/problemList.js';
import type { Problem } from '../messages/problems.js';
import { readXml, xmlText } from './xml/parse.js';
import { checkMessage } from '../messages/check.js';

/** What reading a file in the ERP's layout takes. */
export interface MappedFileContext {
  kind: InboxKind;
  mapping: InboundMapping;
  /** `erp.file.csv`'s settings, where the mapping does not give its own. */
  csv: { delimiter: string; quote: string; encoding: string };
  unknownFields: UnknownFields;
  /** `erp.file.csvAllOrNothing`: one bad row or record refuses the whole file. */
  allOrNothing: boolean;
  /** Given for order status rows: the orders they name are looked up. */
  orders?: OrderReferences;
}

export type MappedFileRead =
  | { ok: true; messages: RowMessage[]; badRows: Problem[] }
  | { ok: false; reason: string; problems: Problem[] };

type Records =
  | { ok: true; records: InputRecord[]; badRows: Problem[]; mapping?: InboundMapping }
  | { ok: false; reason: string; problems: Problem[] };

function csvFileRecords(ctx: MappedFileContext, bytes: Uint8Array): Records {
  const { spec } = ctx.mapping;
  const encoding =
    spec.encoding ?? (ctx.csv.encoding === 'windows-1252' ? 'windows-1252' : 'utf-8');
  const text = mappedText(bytes, encoding);
  if (!text.ok) return text;
  return csvRecords(ctx.mapping, text.text, {
    delimiter: spec.delimiter ?? ctx.csv.delimiter,
    quote: spec.quote ?? ctx.csv.quote,
  });
}

/** XML is read only through safeXml.ts: no DOCTYPE, no entity, bounded. */
function xmlFileRecords(ctx: MappedFileContext, bytes: Uint8Array): Records {
  if (bytes.length > MAX_XML_BYTES) {
    return {
      ok: false,
      reason: `the file has ${bytes.length} bytes; an XML file may have ${MAX_XML_BYTES}`,
      problems: [],
    };
  }
  const decoded = xmlText(bytes);
  if (!decoded.ok) return { ok: false, reason: decoded.reason, problems: [] };
  const parsed = readXml(decoded.text);
  if (!parsed.ok) {
    const where = parsed.line === undefined ? {} : { line: parsed.line };
    return {
      ok: false,
      reason: 'not readable as XML',
      problems: [{ ...where, message: parsed.reason }],
    };
  }
  const foreign = foreignElements(parsed.root);
  if (foreign.length > 0) {
    return { ok: false, reason: 'the file has elements of other namespaces', problems: foreign };
  }
  const { records = '.', lines } = ctx.mapping.spec;
  const found = xmlRecords(parsed.root, records, lines);
  if (found.length === 0) {
    const reason = `no ${records} element below the root element ${parsed.root.name}, where the mapping's records are`;
    return { ok: false, reason, problems: [] };
  }
  return { ok: true, records: found, badRows: [] };
}

/** The message's problems by where their values stand in the file. */
function located(message: MappedMessage, problems: readonly Problem[]): Problem[] {
  return problems.map((problem) =>
    problem.path === undefined
      ? { ...message.where, ...problem }
      : { ...message.locate(problem.path), ...problem },
  );
}

/** A record's message, or its problems with what the mapping made of it (its key may show). */
type RecordMessage =
  | { body: Record<string, unknown>; stamp?: string }
  | { problems: Problem[]; mapped: Record<string, unknown> };

function messageOf(
  ctx: MappedFileContext,
  mapping: InboundMapping,
  record: InputRecord,
): RecordMessage {
  const mapped = mapRecord(mapping, record);
  if (mapped.problems.length > 0) return { problems: mapped.problems, mapped: mapped.body };
  let body = mapped.body;
  if (ctx.orders !== undefined) {
    const referenced = withOrderReference(body, ctx.orders);
    if (!referenced.ok) {
      const problem = { path: referenced.path, message: referenced.message };
      return { problems: located(mapped, [problem]), mapped: body };
    }
    body = referenced.body;
  }
  const checked = checkMessage(ctx.kind, body, ctx.unknownFields);
  if (!checked.ok) return { problems: located(mapped, checked.problems), mapped: body };
  return { body: checked.body, ...(checked.stamp === undefined ? {} : { stamp: checked.stamp }) };
}

/** The rows a record stands for: its CSV line, or its number among the XML records. */
function rowOf(ctx: MappedFileContext, record: InputRecord, index: number): RowMessage['rows'] {
  return [ctx.mapping.spec.format === 'csv' ? (record.where.line ?? index + 1) : index + 1];
}

/**
 * The messages of a file in the ERP's own layout (`erp.file.inboxMapping.<kind>`): each record
 * (CSV row or order, XML element) mapped and checked as any message of the kind. A record with
 * a problem is a bad row, named by line and column (or element); the good ones go on, unless
 * `allOrNothing`, or unless none is good: then the file is refused whole.
 */
export function readMappedFile(ctx: MappedFileContext, bytes: Uint8Array): MappedFileRead {
  const read =
    ctx.mapping.spec.format === 'csv' ? csvFileRecords(ctx, bytes) : xmlFileRecords(ctx, bytes);
  if (!read.ok) return { ...read, problems: listedProblems(read.problems) };
  const good: RowMessage[] = [];
  const badRows = [...read.badRows];
  const badKeys = new Set<string>();
  read.records.forEach((record, index) => {
    const message = messageOf(ctx, read.mapping ?? ctx.mapping, record);
    if ('problems' in message) {
      badRows.push(...message.problems);
      badKeys.add(ctx.kind.key(message.mapped));
    } else {
      good.push({ ...message, rows: rowOf(ctx, record, index), places: [record.where] });
    }
  });
  const noun = ctx.mapping.spec.format === 'csv' ? 'row' : 'record';
  const merged = oneMessagePerKey(ctx.kind, good, badKeys, noun);
  const messages = merged.messages;
  badRows.push(...merged.problems);
  // In the file's order, whichever check found them.
  badRows.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (badRows.length > 0 && (ctx.allOrNothing || messages.length === 0)) {
    const reason =
      messages.length === 0
        ? `no ${ctx.mapping.spec.format === 'csv' ? 'row' : 'record'} of the file could be taken`
        : 'rows with problems; csvAllOrNothing rejects the whole file';
    return { ok: false, reason, problems: listedProblems(badRows) };
  }
  if (messages.length === 0)
    return { ok: false, reason: 'the file holds no rows below its header', problems: [] };
  return { ok: true, messages, badRows: listedProblems(badRows) };
}

/**
 * A file in the ERP's own layout, when its kind has a mapping of the file's format (CSV, XML);
 * undefined for every other file. A message is named by its rows, `<file>#<line>` (CSV) or
 * `<file>#<record>` (XML), `#2,5` when rows of one key were merged (merge.ts).
 */
export function mappedFileMessages(
  ctx: ReadContext,
  kind: InboxFolder,
  file: string,
  bytes: Uint8Array,
  named = file,
): FileMessages | undefined {
  const mapping = ctx.mappings?.get(kind);
  const inboxKind = ctx.kinds.find(kind);
  if (mapping === undefined || inboxKind === undefined) return undefined;
  if (!file.toLowerCase().endsWith(`.${mapping.spec.format}`)) return undefined;
  const byId = ctx.orders?.byId ?? ctx.openTrans?.orderOf;
  const orders = { ...ctx.orders, ...(byId === undefined ? {} : { byId }) };
  const read = readMappedFile(
    {
      kind: inboxKind,
      mapping,
      csv: ctx.options.csv,
      unknownFields: ctx.options.unknownFields,
      allOrNothing: ctx.options.csvAllOrNothing,
      ...(kind === ctx.kinds.formats.orderStatus.name ? { orders } : {}),
    },
    bytes,
  );
  if (!read.ok)
    return { ...read, reason: `not a readable ${kind} file in its mapping: ${read.reason}` };
  const messages = read.messages.map(({ rows, body, stamp }) =>
    inboxMessage(inboxKind, 'file', rowsName(named, rows), body, stamp),
  );
  return { ok: true, messages, badRows: read.badRows };
}
