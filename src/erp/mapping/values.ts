import { decimalTextOf, roundedHalfUp } from '../../shared/decimals.js';
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

/** A number or decimal text with `decimals` digits, rounded half up on its digits; others as they are. */
export function withDecimals(value: unknown, decimals: number): unknown {
  const text = decimalTextOf(value);
  return text === undefined ? value : roundedHalfUp(text, decimals);
}

/** `12.5` (number or decimal text) as `12,5`, in plain notation; other values unchanged. */
export function withDecimalComma(value: unknown): unknown {
  const text = decimalTextOf(value);
  return text === undefined ? value : text.replace('.', ',');
}

/**
 * A record the ERP's layout cannot say as it is, such as a value wider than its field's width:
 * the record is refused with this reason (a dead letter), never written altered.
 */
export class Unwritable extends Error {}

export interface Width {
  width: number;
  align: 'left' | 'right';
  pad: string;
}

/**
 * The text padded to `width` characters on the side away from `align`. A longer text is not
 * cut (a cut number or name is another value): the record is refused, naming `target`.
 */
export function fixedWidth(text: string, { width, align, pad }: Width, target: string): string {
  const length = [...text].length;
  if (length > width) {
    throw new Unwritable(
      `${target}: "${text}" has ${length} characters, wider than its width ${width}; values are never cut: widen the field in the mapping, or correct the value on the platform`,
    );
  }
  const fill = pad.repeat(width - length);
  return align === 'right' ? `${fill}${text}` : `${text}${fill}`;
}
