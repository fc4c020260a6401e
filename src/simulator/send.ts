import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { SimResponse } from './api/response.js';
import { endlessList, isLoopback } from './endless.js';
import type { FaultEffect } from './faults.js';

const SLOW_PIECES = 10;

function toBuffer(body: string | Uint8Array): Buffer {
  return typeof body === 'string'
    ? Buffer.from(body)
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function wholeBody(body: SimResponse['body']): Buffer {
  if (typeof body === 'string' || body instanceof Uint8Array) return toBuffer(body);
  return Buffer.from([...body].join(''));
}

/** Invalid JSON that still starts like the real answer: the last byte becomes a dangling `,{`. */
function malformed(full: Buffer): Buffer {
  return Buffer.concat([full.subarray(0, Math.max(0, full.length - 1)), Buffer.from(',{"')]);
}

/** How an answer is sent: dated, and its waits (a slow body's) on the simulator's clock. */
export interface Sending {
  date: Date;
  wait(ms: number): Promise<void>;
  /** Aborts when the simulator closes: a body still trickling is cut. */
  closing: AbortSignal;
}

async function* trickle(full: Buffer, totalMs: number, sending: Sending): AsyncGenerator<Buffer> {
  const size = Math.max(1, Math.ceil(full.length / SLOW_PIECES));
  for (let start = 0; start < full.length; start += size) {
    if (start > 0) await sending.wait(totalMs / SLOW_PIECES);
    if (sending.closing.aborted) throw new Error('the simulator closed while the body trickled');
    yield full.subarray(start, start + size);
  }
}

/** Half the body under the full Content-Length, then the connection closes. */
function sendTruncated(reply: FastifyReply, response: SimResponse, full: Buffer, date: Date): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(response.status, {
    ...response.headers,
    'content-type': response.contentType,
    'content-length': String(full.length),
    date: date.toUTCString(),
  });
  raw.write(full.subarray(0, Math.floor(full.length / 2)), () => raw.destroy());
}

/** Writes an answer, through the fault's body effects when one applies. */
export function sendResponse(
  reply: FastifyReply,
  response: SimResponse,
  effect: FaultEffect | undefined,
  sending: Sending,
): FastifyReply {
  // Lists stream as chunks; a single record (a string) is answered as it is.
  const isList = typeof response.body !== 'string' && !(response.body instanceof Uint8Array);
  const endless =
    isList && isLoopback(reply.request.socket.remoteAddress) ? effect?.endless : undefined;
  const bodyFault =
    effect &&
    (effect.truncate || effect.malformed || effect.slowBodyMs > 0 || endless !== undefined);
  const { body } = response;
  if (!bodyFault) {
    reply
      .code(response.status)
      .headers({ ...response.headers, 'content-type': response.contentType });
    if (typeof body === 'string' || body instanceof Uint8Array) return reply.send(toBuffer(body));
    return reply.send(Readable.from(body));
  }
  let full = wholeBody(body);
  if (endless !== undefined && response.status === 200) {
    reply.code(200).headers({ ...response.headers, 'content-type': response.contentType });
    return reply.send(Readable.from(endlessList(full, endless.padBytes)));
  }
  if (effect.malformed) full = malformed(full);
  if (effect.truncate) {
    sendTruncated(reply, response, full, sending.date);
    return reply;
  }
  reply
    .code(response.status)
    .headers({ ...response.headers, 'content-type': response.contentType });
  if (effect.slowBodyMs > 0) {
    return reply.send(Readable.from(trickle(full, effect.slowBodyMs, sending)));
  }
  return reply.send(full);
}
