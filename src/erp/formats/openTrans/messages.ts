import type { InboxMessage } from '../../adapter.js';
import { inboxMessage } from '../../messages/identity.js';
import type { InboxKinds } from '../../messages/kinds.js';
import type { Problem } from '../../messages/problems.js';
import type { OpenTransOptions } from './answer.js';
import { readOpenTrans } from './read.js';

export type OpenTransFile =
  | { ok: true; messages: InboxMessage[]; notes: string[] }
  | { ok: false; reason: string; problems: Problem[] };

/**
 * The inbox messages of one openTRANS file in `<inbox>/opentrans/`: one per order and kind (the
 * file's items of one order are one message already), each named by the file and the ORDER_ID
 * it is about (`<file>#<ORDER_ID>`, its kind apart) and known, as every inbox message, by its
 * kind, business key and content (identity.ts).
 */
export async function openTransFile(
  file: string,
  bytes: Uint8Array,
  kinds: InboxKinds,
  options: OpenTransOptions,
): Promise<OpenTransFile> {
  const read = await readOpenTrans(bytes, kinds, options);
  if (!read.ok) return read;
  const messages = read.messages.map((message) =>
    inboxMessage(kinds.formats[message.kind], 'file', `${file}#${message.orderId}`, message.body),
  );
  return { ok: true, messages, notes: read.notes };
}
