import { isIP } from 'node:net';
import { jsonArray } from './api/response.js';

/** Whether the peer is on this machine: only there is a list without end served. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined || isIP(address) === 0) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** A UUID-shaped id of its own for the n-th copy, so every copy is a new record version. */
function copyId(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `e0d1e55e-0000-4000-8000-${hex}`;
}

/**
 * The records of `list` again and again, each copy under a new `_id` (and padded when asked),
 * as one JSON array that never closes. It ends only when the reader stops reading: the server
 * then destroys the stream, which returns this generator.
 */
export function* endlessList(list: Buffer, padBytes: number): Generator<string> {
  const templates = JSON.parse(list.toString('utf8')) as Record<string, unknown>[];
  if (templates.length === 0) {
    yield '[]';
    return;
  }
  const pad = padBytes > 0 ? { pad: 'x'.repeat(padBytes) } : {};
  yield* jsonArray(copies(templates, pad));
}

function* copies(templates: Record<string, unknown>[], pad: object): Generator<string> {
  for (let n = 0; ; n++) {
    yield JSON.stringify({ ...templates[n % templates.length], _id: copyId(n), ...pad });
  }
}
