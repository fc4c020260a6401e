import { parse as parseContentType } from 'content-type';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERP_MESSAGE_BOUNDS } from '../erp/inbox/bounds.js';
import { jsonBoundsProblem } from '../shared/jsonBounds.js';
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
 * JSON bodies as fastify parses them (which refuses `__proto__` and `constructor.prototype`),
 * after their bytes are checked (UTF-8 only) and their shape is bounded (nesting, keys, items)
 * before the parse, so that a hostile shape costs a scan, not a parse.
 */
export function checkedJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  // Fastify also reads text/plain; the ERP's messages are JSON and nothing else.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      const text = bodyText(request, body as Buffer);
      const problem = jsonBoundsProblem(text, ERP_MESSAGE_BOUNDS);
      if (problem !== undefined) {
        throw new BodyRefused(`the body is refused: ${problem}`, 400, 'body beyond bounds');
      }
      void parse(request, text, done);
    } catch (error) {
      done(error as Error);
    }
  });
}
