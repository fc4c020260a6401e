import type { Scalar } from './spec.js';

/** Nothing to write: absent, null or empty text. A mapping's `default` stands in for it. */
export const isMissing = (value: unknown): boolean =>
  value === undefined || value === null || value === '';

/** The text a value is looked up by in a value table (`4` and `"4"` alike). */
export const tableKey = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** A table read backwards: ERP value → platform value (as the table's key, text). */
export type ReverseTable = ReadonlyMap<string, string>;

/** The table backwards, or the ERP values two platform values share (then it cannot be read back). */
export function reversed(
  table: Readonly<Record<string, Scalar>>,
): { ok: true; table: ReverseTable } | { ok: false; shared: string[] } {
  const back = new Map<string, string>();
  const shared = new Set<string>();
  for (const [platform, erp] of Object.entries(table)) {
    const key = String(erp);
    if (back.has(key)) shared.add(key);
    else back.set(key, platform);
  }
  return shared.size === 0 ? { ok: true, table: back } : { ok: false, shared: [...shared] };
}

const NUMBER_TEXT = /^-?\d+(?:\.\d+)?$/;

const numberOf = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return typeof value === 'string' && NUMBER_TEXT.test(value) ? Number(value) : undefined;
};

/** A number (or decimal text) with `decimals` digits after the point, as text; others unchanged. */
export function withDecimals(value: unknown, decimals: number): unknown {
  const number = numberOf(value);
  return number === undefined ? value : number.toFixed(decimals);
}

/** `12.5` (number or text) as `12,5`; other values unchanged. */
export function withDecimalComma(value: unknown): unknown {
  if (typeof value === 'number') return String(value).replace('.', ',');
  return typeof value === 'string' && NUMBER_TEXT.test(value) ? value.replace('.', ',') : value;
}

export interface Width {
  width: number;
  align: 'left' | 'right';
  pad: string;
}

/** The text cut to `width` characters, or padded to it on the side away from `align`. */
export function fixedWidth(text: string, { width, align, pad }: Width): string {
  const chars = [...text];
  if (chars.length >= width) return chars.slice(0, width).join('');
  const fill = pad.repeat(width - chars.length);
  return align === 'right' ? `${fill}${text}` : `${text}${fill}`;
}
