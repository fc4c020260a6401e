import {
  badBodyError,
  invalidJsonError,
  listBoundError,
  listEndedEarlyError,
  networkError,
  type RequestContext,
} from './errors.js';
import { ArrayShapeError, JsonArraySplitter, type CutItem } from './jsonArraySplitter.js';
import { invalidAt } from '../shared/jsonSyntax.js';
import type { ListBounds } from './listBounds.js';
import { bodyTimedOut } from './unreachable.js';
import { TopLevelId } from './topLevelId.js';
import { errorMessage, HomecareError } from '../shared/errors.js';
import type { OpenResponse } from './transport.js';

/** One record as the platform sends it; the entity schemas give it a shape further in. */
export type PlatformRecord = Record<string, unknown>;

/**
 * One item of a list: the record, and its text as the platform sent it (hashed and stored as it
 * is, rather than serialised again).
 */
export interface ListItem {
  record: PlatformRecord;
  text: string;
}

/** A list item set aside unparsed, because no store could keep it: quarantined by its `_id`. */
export interface SetAsideItem {
  setAside: true;
  id: string | undefined;
  reason: string;
  /** Its text, when it was short enough to hold. */
  text?: string;
}

export type ListEntry = ListItem | SetAsideItem;

function isRecord(value: unknown): value is PlatformRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What has been read of a list body, for the error when it cannot be used. */
interface Reading {
  bytes: number;
  /** The first bytes, for the excerpt of a body we cannot use. */
  head: string;
  /** The body itself failed (a cut connection), not its JSON. */
  bodyFailed: boolean;
}

/** Where the bytes of an item lie in the body, and what came around them. */
function spotIn(text: string, itemAt: number, index: number, problem: string) {
  const at = itemAt + Buffer.byteLength(text.slice(0, index), 'utf8');
  const excerpt = text.slice(Math.max(0, index - 200), index + 300);
  return { at, problem, excerpt };
}

function shapeFailure(
  error: ArrayShapeError,
  reading: Reading,
  response: OpenResponse,
  context: RequestContext,
): Error {
  // Whole by its framing, so the platform sent it so; else the connection's close cut it short.
  if (error.atEnd && !response.framed) {
    return listEndedEarlyError(context, response.status, reading.bytes, error);
  }
  const problem = error.atEnd ? `it ends there, inside the list: ${error.message}` : error.message;
  const spot = { at: error.at, problem, excerpt: reading.head };
  return invalidJsonError(context, response.status, spot, error);
}

function listFailure(
  error: unknown,
  reading: Reading,
  response: OpenResponse,
  context: RequestContext,
): Error {
  if (error instanceof HomecareError) return error;
  if (reading.bodyFailed) {
    // Our own time-out stopped a stalled body: the platform did not cut it, so say so.
    if (reading.bytes === 0 || bodyTimedOut(error)) return networkError(context, error);
    return listEndedEarlyError(context, response.status, reading.bytes, error);
  }
  if (reading.bytes === 0) {
    return badBodyError(context, response.status, 'the body is empty, a JSON array was expected');
  }
  if (error instanceof ArrayShapeError) return shapeFailure(error, reading, response, context);
  return badBodyError(context, response.status, errorMessage(error), reading.head, error);
}

/** The chunks of the body, noting how many bytes came and whether the body itself failed. */
async function* chunksOf(
  body: OpenResponse['body'],
  reading: Reading,
  overBytes: (bytes: number) => void,
): AsyncGenerator<Buffer> {
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = await chunks.next();
    } catch (error) {
      reading.bodyFailed = true;
      throw error;
    }
    if (next.done === true) return;
    const chunk = next.value as Buffer;
    reading.bytes += chunk.length;
    overBytes(reading.bytes);
    if (reading.head.length < 1024) reading.head += chunk.subarray(0, 1024).toString('utf8');
    yield chunk;
  }
}

/** Why an item is set aside unread, or undefined when it is read. */
function setAsideReason(item: CutItem, bounds: ListBounds | undefined): string | undefined {
  if (bounds === undefined) return undefined;
  if (item.text === undefined) {
    const { key, limit } = bounds.recordBytes;
    return `the record is ${item.bytes} bytes long, more than ${key} = ${limit} allows; it was not read (raise ${key} to take it)`;
  }
  if (item.depth > bounds.depth) {
    return `the record nests ${item.depth} levels deep; the database keeps JSON up to ${bounds.depth} levels`;
  }
  return undefined;
}

function setAside(item: CutItem, reason: string): SetAsideItem {
  let { id } = item;
  if (item.text !== undefined) {
    const reader = new TopLevelId();
    reader.feed(Buffer.from(item.text, 'utf8'));
    id = reader.id();
  }
  return { setAside: true, id, reason, ...(item.text === undefined ? {} : { text: item.text }) };
}

/** The item read as a record; `at` is where it begins in the body, for the error. */
function parsed(text: string, at: number, status: number, context: RequestContext): ListItem {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch (error) {
    const index = invalidAt(text) ?? 0;
    throw invalidJsonError(context, status, spotIn(text, at, index, errorMessage(error)), error);
  }
  if (!isRecord(record)) {
    throw badBodyError(context, status, `the list item at byte ${at} is not a JSON object`);
  }
  return { record, text };
}

/**
 * The items of a JSON array body, cut out as the bytes arrive and each parsed whole, so memory
 * stays flat however long the list is. With `bounds`, the answer stops at its records and bytes
 * bounds, and a record too long or too deep to store is set aside unread. Leaving the loop early
 * destroys the body, which closes its socket.
 */
export async function* jsonArrayItems(
  response: OpenResponse,
  context: RequestContext,
  bounds?: ListBounds,
): AsyncGenerator<ListEntry> {
  const { body, status } = response;
  const reading: Reading = { bytes: 0, head: '', bodyFailed: false };
  const splitter = new JsonArraySplitter(
    bounds === undefined ? {} : { maxItemBytes: bounds.recordBytes.limit },
  );
  const overBytes = (bytes: number): void => {
    if (bounds !== undefined && bytes > bounds.bytes.limit) {
      throw listBoundError(context, bounds.bytes, `the answer went on past ${bytes} bytes`);
    }
  };
  let count = 0;
  try {
    for await (const chunk of chunksOf(body, reading, overBytes)) {
      for (const item of splitter.push(chunk)) {
        count++;
        if (bounds !== undefined && count > bounds.records.limit) {
          throw listBoundError(
            context,
            bounds.records,
            `the list went on past ${count - 1} records`,
          );
        }
        const reason = setAsideReason(item, bounds);
        if (reason !== undefined) yield setAside(item, reason);
        else if (item.text !== undefined) yield parsed(item.text, item.at, status, context);
      }
    }
    splitter.end();
  } catch (error) {
    throw listFailure(error, reading, response, context);
  } finally {
    body.destroy();
  }
}

async function readAll(response: OpenResponse, context: RequestContext): Promise<Buffer> {
  try {
    return Buffer.from(await response.body.arrayBuffer());
  } catch (error) {
    throw networkError(context, error);
  }
}

/** A JSON object body; an empty body (a write answered 204) reads as `{}`. */
export async function readRecord(
  response: OpenResponse,
  context: RequestContext,
): Promise<PlatformRecord> {
  const text = (await readAll(response, context)).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badBodyError(context, response.status, 'it is not JSON', text, error);
  }
  if (!isRecord(value))
    throw badBodyError(context, response.status, 'it is not a JSON object', text);
  return value;
}

/** Any JSON value, for callers of the generic `send`. */
export async function readJson(response: OpenResponse, context: RequestContext): Promise<unknown> {
  const text = (await readAll(response, context)).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw badBodyError(context, response.status, 'it is not JSON', text, error);
  }
}

/** A file the platform serves as bytes (document PDF or XML, attachment download). */
export interface PlatformFile {
  contentType: string;
  data: Buffer;
}

export async function readFile(
  response: OpenResponse,
  context: RequestContext,
): Promise<PlatformFile> {
  return { contentType: response.contentType, data: await readAll(response, context) };
}
