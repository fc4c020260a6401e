import type * as Iconv from 'iconv-lite';
import { lazyPackage } from '../../shared/lazyPackage.js';

/** Loaded for the first windows-1252 file written or read, not at every start. */
const iconv = lazyPackage<typeof Iconv>('iconv-lite');

/** The text in windows-1252, for an ERP that reads its CSV files so. */
export function encodeWindows1252(text: string): Buffer {
  return iconv().encode(text, 'windows-1252');
}

/** The text of windows-1252 bytes (every byte decodes; none is an error). */
export function decodeWindows1252(bytes: Uint8Array): string {
  return iconv().decode(Buffer.from(bytes), 'windows-1252');
}
