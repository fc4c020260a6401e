import { pipeline, type TransformCallback } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import { badBodyError, networkError, truncatedBodyError, type RequestContext } from './errors.js';
import { errorMessage, HomecareError } from '../shared/errors.js';
import type { OpenResponse } from './transport.js';

/** One record as the platform sends it; the entity schemas give it a shape further in. */
export type PlatformRecord = Record<string, unknown>;

function isRecord(value: unknown): value is PlatformRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON parser that knows whether it failed on a byte it saw or on the end of the input. */
class EndAwareParser extends Parser {
  bytes = 0;
  inputEnded = false;
  /** The first bytes, for the excerpt of a body we cannot use. */
  head = '';

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (e?: Error | null) => void) {
    this.bytes += chunk.length;
    if (this.head.length < 1024) this.head += chunk.subarray(0, 1024).toString('utf8');
    super._write(chunk, encoding, callback);
  }

  override _flush(callback: TransformCallback): void {
    this.inputEnded = true;
    super._flush(callback);
  }
}

function streamFailure(
  error: unknown,
  failure: { source: 'body' | 'parser' | 'array'; error: unknown } | undefined,
  parser: EndAwareParser,
  context: RequestContext,
  status: number,
): Error {
  if (error instanceof HomecareError) return error;
  if (failure === undefined || failure.source === 'body') {
    return networkError(context, failure?.error ?? error);
  }
  if (parser.bytes === 0) {
    return badBodyError(context, status, 'the body is empty, a JSON array was expected');
  }
  if (failure.source === 'parser' && parser.inputEnded) {
    return truncatedBodyError(context, status, failure.error);
  }
  return badBodyError(context, status, errorMessage(failure.error), parser.head, failure.error);
}

/**
 * The items of a JSON array body, parsed as they arrive so memory stays flat however long the
 * list is. Leaving the loop early destroys the body, which closes its socket.
 */
export async function* jsonArrayItems(
  response: OpenResponse,
  context: RequestContext,
): AsyncGenerator<PlatformRecord> {
  const { body, status } = response;
  const parser = new EndAwareParser();
  const array = new StreamArray();
  // pipeline() destroys every stream with the first error, so only the first report says where it began.
  let failure: { source: 'body' | 'parser' | 'array'; error: unknown } | undefined;
  const watch = (source: 'body' | 'parser' | 'array') => (error: unknown) => {
    failure ??= { source, error };
  };
  body.once('error', watch('body'));
  parser.once('error', watch('parser'));
  array.once('error', watch('array'));
  const items = pipeline(body, parser, array, () => undefined);
  try {
    for await (const item of items as AsyncIterable<{ value: unknown }>) {
      if (!isRecord(item.value)) {
        throw badBodyError(context, status, 'a list item is not a JSON object');
      }
      yield item.value;
    }
  } catch (error) {
    throw streamFailure(error, failure, parser, context, status);
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
