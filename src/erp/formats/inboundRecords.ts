import {
  mapRecord,
  type InboundMapping,
  type InputRecord,
  type MappedMessage,
} from '../mapping/index.js';
import { checkMessage } from '../messages/check.js';
import { inboxMessage, rowsName } from '../messages/identity.js';
import type { InboxKind } from '../messages/kinds.js';
import { oneMessagePerKey, type RowMessage } from '../messages/merge.js';
import { withOrderReference, type OrderReferences } from '../messages/orders.js';
import { listedProblems, type Problem } from '../messages/problems.js';
import { refusedFile, type FileMessages, type InboxFile, type ReadContext } from './format.js';

/**
 * The records of a file in the ERP's layout as its format reads them (CSV rows, XML elements),
 * with the rows it could not read; `mapping`: the one they are read with, where the file's
 * header adds columns (`columns: named`). Or why the file is refused.
 */
export type Records =
  | { ok: true; records: InputRecord[]; badRows: Problem[]; mapping?: InboundMapping }
  | { ok: false; reason: string; problems: Problem[] };

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
  kind: InboxKind,
  mapping: InboundMapping,
  record: InputRecord,
  ctx: ReadContext,
  orders: OrderReferences | undefined,
): RecordMessage {
  const mapped = mapRecord(mapping, record);
  if (mapped.problems.length > 0) return { problems: mapped.problems, mapped: mapped.body };
  let body = mapped.body;
  if (orders !== undefined) {
    const referenced = withOrderReference(body, orders);
    if (!referenced.ok) {
      const problem = { path: referenced.path, message: referenced.message };
      return { problems: located(mapped, [problem]), mapped: body };
    }
    body = referenced.body;
  }
  const checked = checkMessage(kind, body, ctx.options.unknownFields);
  if (!checked.ok) return { problems: located(mapped, checked.problems), mapped: body };
  return { body: checked.body, ...(checked.stamp === undefined ? {} : { stamp: checked.stamp }) };
}

/**
 * The messages of a file in the ERP's own layout (`erp.file.inboxMapping.<kind>`), from the
 * records its format read: each mapped and checked as any message of the kind (an order status
 * row with its order looked up). A record with a problem is a bad row, named by line and column
 * (or element); the good ones go on, unless `csvAllOrNothing`, or unless none is good: then the
 * file is refused whole. A message is named by its rows, `<file>#<line>` (CSV) or
 * `<file>#<record>` (XML), `#2,5` when rows of one key were merged (merge.ts).
 */
export function mappedMessages(
  read: Records,
  file: InboxFile,
  given: InboundMapping,
  ctx: ReadContext,
): FileMessages {
  const kind = ctx.kinds.find(file.folder);
  if (kind === undefined) return refusedFile('not an inbox kind folder');
  const refused = (reason: string, problems: readonly Problem[]) =>
    refusedFile(
      `not a readable ${file.folder} file in its mapping: ${reason}`,
      listedProblems(problems),
    );
  if (!read.ok) return refused(read.reason, read.problems);
  const isCsv = given.spec.format === 'csv';
  const isStatus = file.folder === ctx.kinds.formats.orderStatus.name;
  const orders = isStatus ? (ctx.orders ?? {}) : undefined;
  const good: RowMessage[] = [];
  const badRows = [...read.badRows];
  const badKeys = new Set<string>();
  read.records.forEach((record, index) => {
    const message = messageOf(kind, read.mapping ?? given, record, ctx, orders);
    if ('problems' in message) {
      badRows.push(...message.problems);
      badKeys.add(kind.key(message.mapped));
    } else {
      // A record's row: its CSV line, or its number among the XML records.
      const rows = [isCsv ? (record.where.line ?? index + 1) : index + 1];
      good.push({ ...message, rows, places: [record.where] });
    }
  });
  const noun = isCsv ? 'row' : 'record';
  const { messages, problems } = oneMessagePerKey(kind, good, badKeys, noun);
  badRows.push(...problems);
  // In the file's order, whichever check found them.
  badRows.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (badRows.length > 0 && (ctx.options.csvAllOrNothing || messages.length === 0)) {
    const reason =
      messages.length === 0
        ? `no ${noun} of the file could be taken`
        : 'rows with problems; csvAllOrNothing rejects the whole file';
    return refused(reason, badRows);
  }
  if (messages.length === 0) return refused('the file holds no rows below its header', []);
  const named = messages.map(({ rows, body, stamp }) =>
    inboxMessage(kind, 'file', rowsName(file.name, rows), body, stamp),
  );
  return { ok: true, messages: named, badRows: listedProblems(badRows) };
}
