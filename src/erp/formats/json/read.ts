import { readStrictJson } from '../../../shared/strictJson.js';
import { ERP_MESSAGE_BOUNDS } from '../../messages/bounds.js';
import { checkMessage } from '../../messages/check.js';
import { inboxMessage } from '../../messages/identity.js';
import { refusedFile, type FileMessages, type InboxFile, type ReadContext } from '../format.js';
import { decode } from '../text.js';

/**
 * The one message of a JSON file in a kind's folder (`erp.file.charset`), checked as any message
 * of the kind; its size bounded on its text before it is parsed.
 */
export function jsonMessages(bytes: Uint8Array, file: InboxFile, ctx: ReadContext): FileMessages {
  const decoded = decode(bytes, ctx.options.charset);
  if (!decoded.ok) return refusedFile(decoded.reason);
  // Only the kinds' folders and openTRANS's are scanned: every other folder is an unknown entry.
  const kind = ctx.kinds.find(file.folder);
  if (kind === undefined) return refusedFile('not an inbox kind folder');
  const read = readStrictJson(decoded.text, ERP_MESSAGE_BOUNDS);
  if (!read.ok) return refusedFile(read.reason);
  const checked = checkMessage(kind, read.value, ctx.options.unknownFields);
  if (!checked.ok) return refusedFile(`not a valid ${kind.name} message`, checked.problems);
  if (checked.dropped.length > 0) ctx.dropped?.(kind.name, checked.dropped);
  const message = inboxMessage(kind, 'file', file.name, checked.body, checked.stamp);
  return { ok: true, messages: [message], badRows: [] };
}
