import { invalidUtf8Offset } from '../../shared/utf8.js';
import { decodeWindows1252 } from '../windows1252.js';
import type { Problem } from './problems.js';

/** A mapped file's text, or why its bytes are not in the encoding the mapping says. */
export type MappedText =
  { ok: true; text: string } | { ok: false; reason: string; problems: Problem[] };

/** Line and column (both from 1, the column in bytes) of the byte at `offset`. */
function position(bytes: Uint8Array, offset: number): { line: number; column: string } {
  let line = 1;
  let start = 0;
  for (let at = 0; at < offset; at += 1) {
    if (bytes[at] === 0x0a) {
      line += 1;
      start = at + 1;
    }
  }
  return { line, column: String(offset - start + 1) };
}

/** Bytes Windows-1252 leaves undefined: an ERP writing that encoding never writes them. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

const firstNonAscii = (bytes: Uint8Array) => bytes.findIndex((byte) => byte >= 0x80);

const refused = (bytes: Uint8Array, offset: number, reason: string): MappedText => ({
  ok: false,
  reason: 'the file is not in the encoding its mapping says',
  problems: [{ ...position(bytes, offset), message: reason }],
});

/**
 * The text of a mapped file in `encoding`. Nothing is guessed or replaced: UTF-8 that is not
 * valid, a byte Windows-1252 does not define, and a file of Windows-1252 that is in fact UTF-8
 * (its umlauts would arrive as `Ã¤`) are refused, naming the line and column of the first
 * such byte. A UTF-8 byte order mark is dropped.
 */
export function mappedText(bytes: Uint8Array, encoding: 'utf-8' | 'windows-1252'): MappedText {
  if (encoding === 'utf-8') {
    const offset = invalidUtf8Offset(bytes);
    if (offset === undefined) return { ok: true, text: new TextDecoder('utf-8').decode(bytes) };
    return refused(
      bytes,
      offset,
      "not valid UTF-8 here; save the file as UTF-8, or set the mapping's encoding: windows-1252 if the ERP writes that",
    );
  }
  const undefinedByte = bytes.findIndex((byte) => UNDEFINED_IN_1252.has(byte));
  if (undefinedByte !== -1) {
    return refused(
      bytes,
      undefinedByte,
      `byte 0x${(bytes[undefinedByte] ?? 0).toString(16)} is no Windows-1252 character; check the ERP's export encoding`,
    );
  }
  const nonAscii = firstNonAscii(bytes);
  if (nonAscii !== -1 && invalidUtf8Offset(bytes) === undefined) {
    return refused(
      bytes,
      nonAscii,
      'the file is UTF-8, but its mapping says windows-1252 (umlauts would be read wrong); set encoding: utf-8 or export in Windows-1252',
    );
  }
  return { ok: true, text: decodeWindows1252(bytes) };
}
