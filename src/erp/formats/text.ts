/**
 * The text of a file's bytes, decoded only in the encoding the file provably has (nothing is
 * guessed or replaced), and a text's bytes in the encoding an ERP reads.
 */
import type * as Iconv from 'iconv-lite';
import { lazyPackage } from '../../shared/lazyPackage.js';
import { invalidUtf8Offset } from '../../shared/utf8.js';
import type { InboundEncoding } from '../mapping/spec.js';
import type { Problem } from '../messages/problems.js';

/** What a CSV file may be written (and an article CSV read) in: `erp.file.csv.encoding`. */
export const CSV_ENCODINGS = ['utf-8', 'utf-8-bom', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** Loaded for the first windows-1252 file written or read, not at every start. */
const iconv = lazyPackage<typeof Iconv>('iconv-lite');

/** The text of windows-1252 bytes (every byte decodes; none is an error). */
export function decodeWindows1252(bytes: Uint8Array): string {
  return iconv().decode(Buffer.from(bytes), 'windows-1252');
}

/** The text in `encoding`, for an ERP that reads its CSV files so. */
export function encodeText(text: string, encoding: CsvEncoding): Buffer {
  if (encoding === 'windows-1252') return iconv().encode(text, 'windows-1252');
  return Buffer.from(encoding === 'utf-8-bom' ? `\uFEFF${text}` : text, 'utf8');
}

type MappedText = { ok: true; text: string } | { ok: false; reason: string; problems: Problem[] };

/** Line and column (both from 1, the column in bytes) of the byte at `offset`. */
function position(bytes: Uint8Array, offset: number): { line: number; column: string } {
  const before = bytes.subarray(0, offset);
  const start = before.lastIndexOf(0x0a) + 1;
  const line = before.reduce((lines, byte) => (byte === 0x0a ? lines + 1 : lines), 1);
  return { line, column: String(offset - start + 1) };
}

/** Bytes Windows-1252 leaves undefined: an ERP writing that encoding never writes them. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

const refused = (bytes: Uint8Array, offset: number, reason: string): MappedText => ({
  ok: false,
  reason: 'the file is not in the encoding its mapping says',
  problems: [{ ...position(bytes, offset), message: reason }],
});

/** Byte order marks, UTF-32LE's before UTF-16LE's, which it starts with. */
const BYTE_ORDER_MARKS = [
  { name: 'UTF-32LE', bytes: [0xff, 0xfe, 0x00, 0x00] },
  { name: 'UTF-32BE', bytes: [0x00, 0x00, 0xfe, 0xff] },
  { name: 'UTF-8', bytes: [0xef, 0xbb, 0xbf] },
  { name: 'UTF-16LE', bytes: [0xff, 0xfe] },
  { name: 'UTF-16BE', bytes: [0xfe, 0xff] },
] as const;

/** The encoding the file's byte order mark names, if it starts with one. */
const byteOrderMark = (bytes: Uint8Array): string | undefined =>
  BYTE_ORDER_MARKS.find((mark) => mark.bytes.every((byte, at) => bytes[at] === byte))?.name;

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

/**
 * The file's text. Invalid UTF-8 is an error, never silently replaced: a wrong character in a
 * name or an article number would reach the platform. A UTF-8 byte order mark is dropped; one
 * of UTF-16 or UTF-32 refuses the file.
 */
export function decode(
  bytes: Uint8Array,
  charset: 'utf-8' | 'windows-1252' | CsvEncoding,
): { ok: true; text: string } | { ok: false; reason: string } {
  const marked = byteOrderMarkProblem(bytes, charset === 'windows-1252' ? charset : 'utf-8');
  if (marked !== undefined) return { ok: false, reason: marked };
  if (charset === 'windows-1252') return { ok: true, text: decodeWindows1252(bytes) };
  const offset = invalidUtf8Offset(bytes);
  if (offset === undefined) return { ok: true, text: utf8(bytes) };
  return {
    ok: false,
    reason:
      `the file is not valid UTF-8 (first bad byte at offset ${offset}); save it as UTF-8, ` +
      'or set the inbox charset to windows-1252 if the ERP writes that',
  };
}

/**
 * Why a file whose byte order mark says UTF-16 or UTF-32 is not read in `encoding` (its text
 * would be read as other characters, `ÿþK\0D\0…`), or undefined.
 */
function byteOrderMarkProblem(bytes: Uint8Array, encoding: string): string | undefined {
  const mark = byteOrderMark(bytes);
  if (mark === undefined || mark === 'UTF-8' || mark.toLowerCase() === encoding) return undefined;
  const utf16 = mark.startsWith('UTF-16')
    ? ` or set encoding: ${mark.toLowerCase()} in its inboxMapping`
    : '';
  return `the file starts with a ${mark} byte order mark, but is read as ${encoding}: export it as ${encoding}${utf16}`;
}

/**
 * The text of a mapped file in `encoding`. Nothing is guessed or replaced: invalid UTF-8 or
 * UTF-16, a byte Windows-1252 does not define, a Windows-1252 file that is in fact UTF-8 (its
 * umlauts would arrive as `Ã¤`) and a byte order mark of another encoding are refused, naming the
 * line and column of the first such byte. A byte order mark of the encoding read is dropped.
 */
export function mappedText(bytes: Uint8Array, encoding: InboundEncoding): MappedText {
  const marked = byteOrderMarkProblem(bytes, encoding);
  if (marked !== undefined) return refused(bytes, 0, marked);
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    try {
      // fatal: a lone surrogate or an odd byte is an error, never a replacement character.
      return { ok: true, text: new TextDecoder(encoding, { fatal: true }).decode(bytes) };
    } catch {
      // TextDecoder says no more than "invalid": the refusal names the encoding and what to do.
      const why = `not valid ${encoding.toUpperCase()}; check the ERP's export encoding`;
      return refused(bytes, 0, why);
    }
  }
  if (encoding === 'utf-8') {
    const offset = invalidUtf8Offset(bytes);
    if (offset === undefined) return { ok: true, text: utf8(bytes) };
    return refused(
      bytes,
      offset,
      "not valid UTF-8 here; save the file as UTF-8, or set the mapping's encoding: windows-1252 if the ERP writes that",
    );
  }
  const wrong = notWindows1252(bytes);
  if (wrong === undefined) return { ok: true, text: decodeWindows1252(bytes) };
  return refused(
    bytes,
    wrong.offset,
    wrong.utf8
      ? 'the file is UTF-8, but its mapping says windows-1252 (umlauts would be read wrong); set encoding: utf-8 or export in Windows-1252'
      : `byte 0x${wrong.byte.toString(16)} is no Windows-1252 character; check the ERP's export encoding`,
  );
}

/**
 * Where bytes prove they are no Windows-1252 (nor ISO-8859-1) text: a byte it does not define,
 * or non-ASCII bytes that are all valid UTF-8 (no person writes every accented letter as one of
 * UTF-8's pairs, `Ã¤` for `ä`). Undefined where they may be.
 */
export function notWindows1252(
  bytes: Uint8Array,
): { offset: number; utf8: false; byte: number } | { offset: number; utf8: true } | undefined {
  const undefinedByte = bytes.findIndex((byte) => UNDEFINED_IN_1252.has(byte));
  if (undefinedByte !== -1) {
    return { offset: undefinedByte, utf8: false, byte: bytes[undefinedByte] ?? 0 };
  }
  const nonAscii = bytes.findIndex((byte) => byte >= 0x80);
  if (nonAscii !== -1 && invalidUtf8Offset(bytes) === undefined) {
    return { offset: nonAscii, utf8: true };
  }
  return undefined;
}
