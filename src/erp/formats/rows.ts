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

/** One row of a file (a CSV row, an XML record) as read: its message, or its problems and key. */
export type RowRead =
  { ok: true; message: RowMessage } | { ok: false; problems: Problem[]; key: string };

function messageOf(
  kind: InboxKind,
  mapping: InboundMapping,
  record: InputRecord,
  ctx: ReadContext,
  orders: OrderReferences | undefined,
): { body: Record<string, unknown>; stamp?: string } | { problems: Problem[]; key: string } {
  const mapped = mapRecord(mapping, record);
  const key = () => kind.key(mapped.body);
  if (mapped.problems.length > 0) return { problems: mapped.problems, key: key() };
  let body = mapped.body;
  if (orders !== undefined) {
    const referenced = withOrderReference(body, orders);
    if (!referenced.ok) {
      const problem = { path: referenced.path, message: referenced.message };
      return { problems: located(mapped, [problem]), key: key() };
    }
    body = referenced.body;
  }
  const checked = checkMessage(kind, body, ctx.options.unknownFields);
  if (!checked.ok) return { problems: located(mapped, checked.problems), key: kind.key(body) };
  return { body: checked.body, ...(checked.stamp === undefined ? {} : { stamp: checked.stamp }) };
}

/**
 * A file's messages from its rows, read in a mapping's layout or a format's own: the good rows
 * one message per business key (messages/merge.ts), each named by its rows (`<file>#2,5`); a row with a
 * problem is a bad row, and leaves out the other rows of its key. The file is refused whole when
 * no row can be taken, or with `csvAllOrNothing` when any is bad; `badRows`: those its format
 * could not read at all.
 */
export function keyedMessages(
  kind: InboxKind,
  file: InboxFile,
  reads: readonly RowRead[],
  badRows: readonly Problem[],
  ctx: ReadContext,
  noun: 'row' | 'record',
): FileMessages {
  const good: RowMessage[] = [];
  const bad = [...badRows];
  const badKeys = new Set<string>();
  for (const read of reads) {
    if (read.ok) good.push(read.message);
    else {
      bad.push(...read.problems);
      badKeys.add(read.key);
    }
  }
  const { messages, problems } = oneMessagePerKey(kind, good, badKeys, noun);
  bad.push(...problems);
  // In the file's order, whichever check found them.
  bad.sort((a, b) => (a.line ?? a.row ?? 0) - (b.line ?? b.row ?? 0));
  if (bad.length > 0 && (ctx.options.csvAllOrNothing || messages.length === 0)) {
    const reason =
      messages.length === 0
        ? `no ${noun} of the file could be taken`
        : 'rows with problems; csvAllOrNothing rejects the whole file';
    return refusedFile(reason, bad);
  }
  if (messages.length === 0) return refusedFile('the file holds no rows below its header');
  const named = messages.map(({ rows, body, stamp }) =>
    inboxMessage(kind, 'file', rowsName(file.name, rows), body, stamp),
  );
  return { ok: true, messages: named, badRows: bad };
}

/**
 * The messages of a file in the ERP's own layout (`erp.file.inboxMapping.<kind>`), from the
 * records its format read: each mapped and checked as any message of the kind (an order status
 * row with its order looked up), bad ones named by line and column (or element). A message is
 * named `<file>#<line>` (CSV) or `<file>#<record>` (XML).
 */
export function mappedMessages(
  read: Records,
  file: InboxFile,
  given: InboundMapping,
  ctx: ReadContext,
): FileMessages {
  const kind = ctx.kinds.find(file.folder);
  if (kind === undefined) return refusedFile('not an inbox kind folder');
  const result = read.ok ? mappedRows(kind, read, file, given, ctx) : read;
  if (result.ok) return { ...result, badRows: listedProblems(result.badRows) };
  const reason = `not a readable ${file.folder} file in its mapping: ${result.reason}`;
  return refusedFile(reason, listedProblems(result.problems));
}

function mappedRows(
  kind: InboxKind,
  read: Extract<Records, { ok: true }>,
  file: InboxFile,
  given: InboundMapping,
  ctx: ReadContext,
): FileMessages {
  const isCsv = given.spec.format === 'csv';
  const isStatus = file.folder === ctx.kinds.formats.orderStatus.name;
  const orders = isStatus ? (ctx.orders ?? {}) : undefined;
  const reads = read.records.map((record, index): RowRead => {
    const message = messageOf(kind, read.mapping ?? given, record, ctx, orders);
    if ('problems' in message) return { ok: false, ...message };
    // A record's row: its CSV line, or its number among the XML records.
    const rows = [isCsv ? (record.where.line ?? index + 1) : index + 1];
    return { ok: true, message: { ...message, rows, places: [record.where] } };
  });
  return keyedMessages(kind, file, reads, read.badRows, ctx, isCsv ? 'row' : 'record');
}
