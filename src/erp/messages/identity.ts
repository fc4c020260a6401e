import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonicalJson.js';
import type { InboxMessage } from '../adapter.js';
import type { InboxKind } from './kinds.js';
import { ERP_STAMP } from './stamp.js';

/**
 * What makes an ERP message the one it is (design.md, Wave 4): its kind, the business key of
 * what it is about and what it says, as canonical JSON; neither its file nor its line: the same
 * message again, under any name, is the same message.
 */
type Body = Record<string, unknown>;

/** The SHA-256 of what the message says: its canonical JSON, its stamp in its own field. */
export function contentHash(body: Body, stamp: string | undefined): string {
  const said = stamp === undefined ? body : { ...body, [ERP_STAMP]: stamp };
  return createHash('sha256').update(canonicalJson(said)).digest('hex');
}

/** A checked message of `kind`, named `name` (a file's message, or a request's key). */
export function inboxMessage(
  kind: InboxKind,
  source: InboxMessage['source'],
  name: string,
  body: Body,
  stamp?: string,
): InboxMessage {
  return {
    kind: kind.name,
    source,
    name,
    key: kind.key(body),
    sha256: contentHash(body, stamp),
    body,
    ...(stamp === undefined ? {} : { stamp }),
  };
}

/** `<file>#<row>`, or `<file>#2,5` for a message of several rows. */
export const rowsName = (file: string, rows: readonly number[]): string =>
  `${file}#${rows.join(',')}`;
