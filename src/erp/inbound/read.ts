/**
 * How the inbox reads one file: its name and size checked, its bytes read in its format
 * (formats/); moving nothing, so that it also reads a file where it lies (`inbox check`,
 * `inbox replay`).
 */
import { readFile, stat } from 'node:fs/promises';
import type { Logger } from '../../log/index.js';
import { inboxFormat } from '../formats/index.js';
import { DEFAULT_CSV_OPTIONS } from '../formats/csv/options.js';
import { refusedFile, type FileMessages, type ReadContext } from '../formats/format.js';
import { droppedFieldsLog, type DroppedFields } from '../messages/droppedFields.js';
import type { InboxFolder, InboxKinds } from '../messages/kinds.js';
import { inboxMappings } from '../messages/layouts.js';
import type { OrderLookup, OrderReferences } from '../messages/orders.js';
import { extensionProblem, fileNameProblem } from './fileNames.js';
import type { InboxOptions } from './options.js';

/** What reading takes beyond the options: the kinds, and what the daemon knows of orders. */
export interface ReadDeps {
  /** The push-back kinds: one folder each, and how its messages are checked. */
  kinds: InboxKinds;
  /** Told of fields left out with `unknownFields: drop`; else they are logged on `logger`. */
  dropped?: DroppedFields;
  logger?: Logger;
  /** The order an openTRANS answer names, from the mirror; without it, taken as named. */
  openTransOrder?: OrderLookup;
  /** The orders of the mirror with a salesId: whom a mapped order status row names by it. */
  ordersBySalesId?: NonNullable<OrderReferences['bySalesId']>;
}

export type InboxReadContext = ReadContext & { options: InboxOptions };

/** How a file is read and checked: by the inbox's scans, and where it lies (`inbox replay`). */
export function readContext(options: InboxOptions, deps: ReadDeps): InboxReadContext {
  const dropped = deps.dropped ?? (deps.logger && droppedFieldsLog(deps.logger));
  // Built (and checked against the kinds) once: a mapping that does not fit stops the start.
  const mappings = inboxMappings(
    {
      mapping: options.mapping,
      valueTables: options.valueTables,
      timeZone: options.csv.timeZone ?? DEFAULT_CSV_OPTIONS.timeZone,
      decimalComma: options.csv.decimalComma,
    },
    deps.kinds,
  );
  const orders = { byId: deps.openTransOrder, bySalesId: deps.ordersBySalesId };
  return { options, kinds: deps.kinds, dropped, mappings, orders };
}

/** Taken only after it stayed empty a while (or its marker came), so nothing more will come. */
const EMPTY_FILE_REASON =
  'the file is empty; write the message again, under a hidden name first and renamed once whole';

/**
 * The messages of `file` of `kind`'s folder, read at `path`, named by `named` (the name the
 * archive keeps it under; `file` where it lies).
 */
export async function readInboxFile(
  ctx: InboxReadContext,
  kind: InboxFolder,
  file: string,
  path: string,
  named = file,
): Promise<FileMessages> {
  const mapped = ctx.mappings?.get(kind)?.spec.format;
  const refusal = fileNameProblem(file) ?? extensionProblem(kind, file, mapped);
  if (refusal !== undefined) return refusedFile(refusal);
  const { size } = await stat(path);
  const { maxFileBytes } = ctx.options;
  if (size > maxFileBytes) {
    return refusedFile(`the file has ${size} bytes, more than maxFileBytes (${maxFileBytes})`);
  }
  if (size === 0) return refusedFile(EMPTY_FILE_REASON);
  const bytes = await readFile(path);
  // An XML file says its encoding itself (formats/xml/parse.ts), not by `charset`.
  const read = inboxFormat(kind, file).read;
  if (read === undefined) return refusedFile(`${kind} files are not read`);
  return read(bytes, { folder: kind, name: named }, ctx);
}
