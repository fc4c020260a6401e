/**
 * What every file format takes and gives (index.ts holds one `FileFormat` each): the inbox reads
 * a file's bytes into messages by its format's `read`, the file adapter writes records into bytes
 * by its `write`, and neither needs to know one format from another.
 */
import type { ResourceName } from '../../contract/index.js';
import type { InboxMessage } from '../adapter.js';
import type { OutboundMappingSpec, OutboxFormat, ValueTables } from '../mapping/spec.js';
import { Unwritable } from '../mapping/values.js';
import type { DroppedFields } from '../messages/droppedFields.js';
import type { UnknownFields } from '../messages/fields.js';
import type { InboxFolder, InboxKinds } from '../messages/kinds.js';
import type { InboxMappings } from '../messages/layouts.js';
import type { OrderReferences } from '../messages/orders.js';
import type { Problem } from '../messages/problems.js';
import type { CsvEncoding } from './text.js';

/** How CSV files are written (outbox) and read (inbox: the article CSV, mapped files' defaults). */
export interface CsvOptions {
  /** `,` by default; German ERPs usually want `;`. */
  delimiter: string;
  quote: string;
  /** `asNeeded` quotes a cell only when it holds the delimiter, a quote or a line break. */
  quoting: 'asNeeded' | 'all';
  header: boolean;
  encoding: CsvEncoding;
  /** Numbers written as `12,5` instead of `12.5`. */
  decimalComma: boolean;
  /**
   * `iso` keeps the platform's values; `de` writes date-only values as `dd.mm.yyyy` and
   * date-times as `dd.mm.yyyy HH:MM:SS` in `timeZone`.
   */
  dateFormat: 'iso' | 'de';
  timeZone: string;
  lineEnding: 'lf' | 'crlf';
  /** Dot paths per resource, e.g. `deliveryAddress.city`; unlisted resources get a flattening. */
  columns: Partial<Record<ResourceName, readonly string[]>>;
}

/** The ids openTRANS names the buyer and the supplier by; the platform knows neither. */
export interface OpenTransParties {
  buyerId: string;
  supplierId: string;
}

/** How records are written (`erp.file`, less where the files go). */
export interface WriteOptions {
  format: OutboxFormat;
  /** Write single and direct orders as openTRANS 2.1 ORDER documents (format `xml` only). */
  openTrans: boolean;
  openTransParties: OpenTransParties;
  csv: CsvOptions;
  /** `erp.file.mapping`: the ERP's own layout per resource; a resource without one keeps ours. */
  mapping: Partial<Record<ResourceName, OutboundMappingSpec>>;
  /** `erp.file.valueTables`, which the mappings name. */
  valueTables: ValueTables;
}

/**
 * What a file of records holds, and the records it leaves out: by their index, why the ERP's
 * layout cannot say them (a value wider than its width). A refused record is refused the same
 * way on every try, so the file of the others stays the same.
 */
export interface Written {
  data: Buffer;
  refused: ReadonlyMap<number, string>;
}

/** How inbox files are read (`erp.file`, less where they lie and what becomes of them). */
export interface ReadOptions {
  /** Charset of JSON files; CSV files follow `csv.encoding`. */
  charset: 'utf-8' | 'windows-1252';
  /** Also the defaults of mapped CSV files; `timeZone`: of date-times a mapping reads. */
  csv: Pick<CsvOptions, 'delimiter' | 'quote' | 'encoding' | 'decimalComma'> &
    Partial<Pick<CsvOptions, 'timeZone'>>;
  /** One bad row (or mapped record) rejects the whole CSV (or mapped) file; else the good go on. */
  csvAllOrNothing: boolean;
  /** A field the contract does not define: the file is refused, or the field left out. */
  unknownFields: UnknownFields;
  /**
   * The tracking link of an openTRANS dispatch notification without TRACKING_TRACING_URL:
   * `{shipmentId}` stands for its SHIPMENT_ID. Without it only the tracking code is sent.
   */
  trackingLinkTemplate?: string;
}

/** What reading a file takes: the options and kinds, and the orders messages name. */
export interface ReadContext {
  options: ReadOptions;
  kinds: InboxKinds;
  /** Told of the unknown fields left out with `unknownFields: drop`. */
  dropped?: DroppedFields | undefined;
  /** How each kind's CSV and XML files are read: `erp.file.inboxMapping`, else its default. */
  mappings?: InboxMappings;
  /**
   * The orders of the mirror, by `_id` (openTRANS answers and status rows) and by `salesId`
   * (status rows): given, a message naming an order the daemon does not know is refused.
   */
  orders?: OrderReferences;
}

/** The file being read: the folder it was dropped in, and the name its messages go by. */
export interface InboxFile {
  folder: InboxFolder;
  /** `<name>#<row>` names its messages (the name the archive keeps it under). */
  name: string;
}

/** A file's messages as the inbox reads them, or why it refuses the file. */
export type FileMessages =
  | { ok: true; messages: InboxMessage[]; badRows: Problem[]; notes?: string[] }
  | { ok: false; reason: string; problems: Problem[] };

/** One file format (index.ts): how its files are written and, where the inbox takes them, read. */
export interface FileFormat {
  /** One outbox file holds a batch of records (ndjson, csv); else one file each. */
  readonly batches: boolean;
  /** The file of a resource's records (of one record, for a format that writes a file each). */
  write(
    resource: ResourceName,
    records: readonly Record<string, unknown>[],
    options: WriteOptions,
  ): Written;
  /** The messages of one inbox file; absent where the inbox reads no such files. */
  readonly read?: (
    bytes: Uint8Array,
    file: InboxFile,
    ctx: ReadContext,
  ) => FileMessages | Promise<FileMessages>;
}

/**
 * A file of records: each record's part (its line, its rows, its document), a record the ERP's
 * layout cannot say left out with why (an Unwritable), and the parts of the others joined.
 */
export function writeEach<T>(
  records: readonly Record<string, unknown>[],
  render: (record: Record<string, unknown>) => T[],
  join: (parts: T[]) => Buffer,
): Written {
  const parts: T[] = [];
  const refused = new Map<number, string>();
  records.forEach((record, index) => {
    try {
      parts.push(...render(record));
    } catch (error) {
      if (!(error instanceof Unwritable)) throw error;
      refused.set(index, error.message);
    }
  });
  return { data: join(parts), refused };
}

/** The one file of a format that writes a file per record. */
export const firstFile = (files: readonly Buffer[]): Buffer => files[0] ?? Buffer.alloc(0);

/** A file the inbox refuses whole, with why (and where, when its problems say). */
export const refusedFile = (reason: string, problems: Problem[] = []) => ({
  ok: false as const,
  reason,
  problems,
});
