/** What a handler answers; the sender writes it, possibly through an injected fault. */
export interface SimResponse {
  status: number;
  contentType: string;
  /** A list streams as chunks of JSON text; everything else is one string or buffer. */
  body: string | Uint8Array | Iterable<string>;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function jsonResponse(status: number, body: unknown): SimResponse {
  return { status, contentType: JSON_TYPE, body: JSON.stringify(body) };
}

/** Records are written in chunks of about this many characters. */
const CHUNK_CHARS = 64 * 1024;

/** A JSON array written from record texts in chunks, never built as one string. */
export function* jsonArray(items: Iterable<string>): Generator<string> {
  let chunk = '[';
  let first = true;
  for (const item of items) {
    chunk += first ? item : `,${item}`;
    first = false;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}]`;
}

export function jsonListResponse(items: Iterable<string>): SimResponse {
  return { status: 200, contentType: JSON_TYPE, body: jsonArray(items) };
}
