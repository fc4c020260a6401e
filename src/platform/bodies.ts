import { badBodyError, networkError, truncatedBodyError, type RequestContext } from './errors.js';
import { ArrayShapeError, JsonArraySplitter } from './jsonArraySplitter.js';
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

function listFailure(
  error: unknown,
  reading: Reading,
  context: RequestContext,
  status: number,
): Error {
  if (error instanceof HomecareError) return error;
  if (reading.bodyFailed) return networkError(context, error);
  if (reading.bytes === 0) {
    return badBodyError(context, status, 'the body is empty, a JSON array was expected');
  }
  if (error instanceof ArrayShapeError && error.atEnd) {
    return truncatedBodyError(context, status, error);
  }
  return badBodyError(context, status, errorMessage(error), reading.head, error);
}

/** The chunks of the body, noting how many bytes came and whether the body itself failed. */
async function* chunksOf(body: OpenResponse['body'], reading: Reading): AsyncGenerator<Buffer> {
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
    if (reading.head.length < 1024) reading.head += chunk.subarray(0, 1024).toString('utf8');
    yield chunk;
  }
}

/**
 * The items of a JSON array body, cut out as the bytes arrive and each parsed whole, so memory
 * stays flat however long the list is. Leaving the loop early destroys the body, which closes
 * its socket.
 */
export async function* jsonArrayItems(
  response: OpenResponse,
  context: RequestContext,
): AsyncGenerator<ListItem> {
  const { body, status } = response;
  const reading: Reading = { bytes: 0, head: '', bodyFailed: false };
  const splitter = new JsonArraySplitter();
  try {
    for await (const chunk of chunksOf(body, reading)) {
      for (const text of splitter.push(chunk)) {
        const record: unknown = JSON.parse(text);
        if (!isRecord(record)) {
          throw badBodyError(context, status, 'a list item is not a JSON object');
        }
        yield { record, text };
      }
    }
    splitter.end();
  } catch (error) {
    throw listFailure(error, reading, context, status);
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
