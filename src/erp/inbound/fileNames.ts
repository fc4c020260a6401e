import type { CsvEncoding } from '../outbound/file/options.js';
import { OPENTRANS_FOLDER, type InboxFolder } from './folders.js';
import { invalidUtf8Offset } from '../../shared/utf8.js';
import { decodeWindows1252 } from '../formats/windows1252.js';
import { byteOrderMarkProblem } from '../formats/text.js';

/**
 * Why a file name is refused, or undefined. A name must stay inside its folder wherever it is
 * later copied, so Windows separators and drive letters are refused too.
 */
export function fileNameProblem(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return `"${name}" is not a file name`;
  if (/[/\\\0]/.test(name)) return `file name "${name}" holds a path separator`;
  if (name.startsWith('..'))
    return `file name "${name}" starts with "..", which points outside the folder`;
  if (/^[A-Za-z]:/.test(name)) return `file name "${name}" looks like an absolute Windows path`;
  return undefined;
}

/** Whether the file's name says what its kind's folder reads: JSON, article CSV, a mapped format. */
export function extensionProblem(
  kind: InboxFolder,
  name: string,
  mapped?: 'csv' | 'xml',
): string | undefined {
  const lower = name.toLowerCase();
  if (kind === OPENTRANS_FOLDER) {
    return lower.endsWith('.xml')
      ? undefined
      : `file "${name}" does not end in .xml, so it is not read as an openTRANS answer`;
  }
  const endings = ['.json'];
  if (mapped !== undefined) endings.push(`.${mapped}`);
  if (kind === 'article' && mapped !== 'csv') endings.push('.csv');
  if (endings.some((ending) => lower.endsWith(ending))) return undefined;
  const allowed = endings.join(' or ');
  return `file "${name}" does not end in ${allowed}, so it is not read as a ${kind} message`;
}

export type Decoded = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The file's text. Invalid UTF-8 is an error, never silently replaced: a wrong character in a
 * name or an article number would reach the platform. A UTF-8 byte order mark is dropped; one
 * of UTF-16 or UTF-32 refuses the file.
 */
export function decode(
  bytes: Uint8Array,
  charset: 'utf-8' | 'windows-1252' | CsvEncoding,
): Decoded {
  const marked = byteOrderMarkProblem(bytes, charset === 'windows-1252' ? charset : 'utf-8');
  if (marked !== undefined) return { ok: false, reason: marked };
  if (charset === 'windows-1252') return { ok: true, text: decodeWindows1252(bytes) };
  const offset = invalidUtf8Offset(bytes);
  if (offset === undefined) return { ok: true, text: new TextDecoder('utf-8').decode(bytes) };
  return {
    ok: false,
    reason:
      `the file is not valid UTF-8 (first bad byte at offset ${offset}); save it as UTF-8, ` +
      'or set the inbox charset to windows-1252 if the ERP writes that',
  };
}
