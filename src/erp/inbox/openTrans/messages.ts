import { createHash } from 'node:crypto';
import type { InboxMessage } from '../../adapter.js';
import type { InboxKinds } from '../kinds.js';
import type { Problem } from '../problems.js';
import type { OpenTransOptions } from './answer.js';
import { readOpenTrans } from './read.js';

export type OpenTransFile =
  | { ok: true; messages: InboxMessage[]; notes: string[] }
  | { ok: false; reason: string; problems: Problem[] };

/**
 * The inbox messages of one openTRANS file in `<inbox>/opentrans/`: each named by the file and
 * the ORDER_ID it is about (`<file>#<ORDER_ID>`, its kind apart), and hashed by its body as an
 * article CSV row is, so the same file read again is a repeat and the same name with another
 * content a new message, as for every inbox file.
 */
export async function openTransFile(
  file: string,
  bytes: Uint8Array,
  kinds: InboxKinds,
  options: OpenTransOptions,
): Promise<OpenTransFile> {
  const read = await readOpenTrans(bytes, kinds, options);
  if (!read.ok) return read;
  const messages = read.messages.map((message): InboxMessage => ({
    kind: message.kind,
    source: 'file',
    name: `${file}#${message.orderId}`,
    sha256: createHash('sha256').update(JSON.stringify(message.body)).digest('hex'),
    body: message.body,
  }));
  return { ok: true, messages, notes: read.notes };
}
