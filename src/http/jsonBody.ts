import { parse as parseContentType } from 'content-type';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERP_MESSAGE_BOUNDS } from '../erp/messages/bounds.js';
import { readStrictJson } from '../shared/strictJson.js';
import { invalidUtf8Offset } from '../shared/utf8.js';

/** A refusal of the body, with the HTTP status that says why. */
export class BodyRefused extends Error {
  constructor(
    message: string,
    readonly statusCode: 400 | 415,
    /** Short and free of the body's content, for the refusal log. */
    readonly reason: string,
  ) {
    super(message);
    this.name = 'BodyRefused';
  }
}

const UTF8 = new Set(['utf-8', 'utf8']);

/** The body's declared charset, when it is not UTF-8: JSON is UTF-8 (RFC 8259, 8.1). */
function foreignCharset(request: FastifyRequest): string | undefined {
  let charset: string | undefined;
  try {
    charset = parseContentType(request.headers['content-type'] ?? '').parameters.charset;
  } catch {
    const message = 'the Content-Type header cannot be read; send "application/json"';
    throw new BodyRefused(message, 415, 'content type unreadable');
  }
  return charset === undefined || UTF8.has(charset.toLowerCase()) ? undefined : charset;
}

/** The body's text: its bytes are checked, never repaired, so no U+FFFD reaches the platform. */
function bodyText(request: FastifyRequest, bytes: Buffer): string {
  const charset = foreignCharset(request);
  if (charset !== undefined) {
    throw new BodyRefused(
      `the body is declared charset=${charset}; send it as UTF-8 (charset=utf-8, or no charset)`,
      415,
      'charset not UTF-8',
    );
  }
  const offset = invalidUtf8Offset(bytes);
  if (offset !== undefined) {
    throw new BodyRefused(
      `the body is not valid UTF-8 (first bad byte at offset ${offset}); send it as UTF-8`,
      400,
      'body not UTF-8',
    );
  }
  return bytes.toString('utf8');
}

/**
 * A body sent compressed (`Content-Encoding: gzip`, …) is refused with 415 (RFC 9110, 15.5.16):
 * its bytes are no JSON text, and decompressing what a client sends would let a small request
 * cost the daemon far more than its size.
 */
function refuseEncoded(request: FastifyRequest): void {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return;
  throw new BodyRefused(
    `the body is sent with Content-Encoding: ${encoding}; send it uncompressed (no Content-Encoding, or identity)`,
    415,
    'content encoding',
  );
}

/**
 * JSON bodies read as the file inbox reads a JSON file (shared/strictJson.ts): their bytes
 * checked (uncompressed, UTF-8 only), their shape bounded (nesting, keys, items) before the
 * parse, a key twice, a `__proto__` key and a number a double cannot hold refused.
 */
export function checkedJsonBodies(app: FastifyInstance): void {
  // Fastify also reads text/plain; the ERP's messages are JSON and nothing else.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      refuseEncoded(request);
      const read = readStrictJson(bodyText(request, body as Buffer), ERP_MESSAGE_BOUNDS);
      if (read.ok) done(null, read.value);
      else if (read.syntax)
        done(new BodyRefused(`the body is ${read.reason}`, 400, 'body not JSON'));
      else done(new BodyRefused(`the body is refused: ${read.reason}`, 400, 'body refused'));
    } catch (error) {
      done(error as Error);
    }
  });
}
