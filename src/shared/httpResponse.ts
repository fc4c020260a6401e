import type { Dispatcher } from 'undici';

/** How much of an error body we read for the excerpt; the rest goes with the socket. */
const ERROR_BODY_LIMIT = 16 * 1024;

/** One response header, the first where it came several times. */
export function firstHeader(
  headers: Dispatcher.ResponseData['headers'],
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The start of an error body, for the excerpt; the body is destroyed after. */
export async function readStart(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      chunks.push(buffer);
      size += buffer.length;
      if (size >= ERROR_BODY_LIMIT) break;
    }
  } catch {
    // An error body cut short is still worth its first bytes.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}
