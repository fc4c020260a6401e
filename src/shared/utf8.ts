import { isUtf8 } from 'node:buffer';

const REPLACEMENT = '\uFFFD';
/** U+FFFD as UTF-8: a replacement character the sender wrote on purpose. */
const REPLACEMENT_BYTES = Buffer.from(REPLACEMENT, 'utf8');

/**
 * The byte offset of the first byte that is not valid UTF-8, or undefined when all are. The
 * lenient decoder puts U+FFFD where a byte is bad; the first U+FFFD whose bytes are not U+FFFD's
 * own encoding is that place (everything before it decoded cleanly, so its length in UTF-8 is
 * its length in the input).
 */
export function invalidUtf8Offset(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = input.toString('utf8');
  let offset = 0;
  let from = 0;
  for (let at = text.indexOf(REPLACEMENT); at !== -1; at = text.indexOf(REPLACEMENT, at + 1)) {
    offset += Buffer.byteLength(text.slice(from, at), 'utf8');
    if (!input.subarray(offset, offset + REPLACEMENT_BYTES.length).equals(REPLACEMENT_BYTES)) {
      return offset;
    }
    offset += REPLACEMENT_BYTES.length;
    from = at + 1;
  }
  return 0;
}
