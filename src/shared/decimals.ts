/**
 * Decimal numbers as text, so that a value is never altered on its way: a price the ERP writes
 * as `1.005` is rounded on its digits (to `1.01`), not through the binary fraction
 * 1.00499999999999989… that a JavaScript number holds. The text form is plain: an optional `-`,
 * digits, and a `.` with digits (`-1234.50`); never an exponent.
 */

/** A decimal in plain text form (`-1234.50`), what the platform sends prices as. */
export const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * `value` in plain notation: the shortest decimal that reads back as the same number (what
 * `String` gives), with an exponent spelt out (`1e+21` → `1000000000000000000000`).
 */
export function plainNumber(value: number): string {
  const text = String(value);
  const e = text.indexOf('e');
  if (e === -1) return text;
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.slice(negative ? 1 : 0, e).split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(text.slice(e + 1));
  let plain: string;
  if (point <= 0) plain = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${plain}` : plain;
}

/** A value as text: a string as it is, a number in plain notation, anything else as JSON. */
export const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' && Number.isFinite(value)
      ? plainNumber(value)
      : JSON.stringify(value);

/** A finite number, or decimal text, as decimal text; undefined for anything else. */
export function decimalTextOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? plainNumber(value) : undefined;
  return typeof value === 'string' && PLAIN_DECIMAL.test(value) ? value : undefined;
}

/** The digits with one added to the last, carrying (`199` → `200`, `99` → `100`). */
function plusOne(digits: string): string {
  let at = digits.length - 1;
  while (at >= 0 && digits[at] === '9') at -= 1;
  if (at < 0) return `1${'0'.repeat(digits.length)}`;
  const bumped = String.fromCharCode(digits.charCodeAt(at) + 1);
  return `${digits.slice(0, at)}${bumped}${'0'.repeat(digits.length - at - 1)}`;
}

/**
 * Decimal text with exactly `decimals` digits after the point, rounded half up on its digits
 * (away from zero, as commercial rounding does): `1.005` → `1.01`, `-2.675` → `-2.68`. A value
 * that rounds to zero loses its sign.
 */
export function roundedHalfUp(text: string, decimals: number): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  let digits: string;
  if (fraction.length <= decimals) digits = whole + fraction.padEnd(decimals, '0');
  else {
    const kept = whole + fraction.slice(0, decimals);
    digits = (fraction[decimals] ?? '0') >= '5' ? plusOne(kept) : kept;
  }
  const point = digits.length - decimals;
  const rounded = decimals === 0 ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative && /[1-9]/.test(rounded) ? `-${rounded}` : rounded;
}

const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * What a number literal (JSON's grammar, which decimal text is part of) is worth, as one key:
 * its significant digits and the power of ten of the last one. `2.50`, `2.5` and `25e-1` are
 * the same; a literal that is no number gives undefined.
 */
function valueKey(literal: string): string | undefined {
  const match = NUMBER_LITERAL.exec(literal);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let power = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  power += trailing;
  return `${sign}${digits}e${power}`;
}

export type ExactNumber = { value: number } | { problem: string };

/**
 * The number a literal (decimal text, or a JSON number as written) stands for, when a JSON
 * number, a double, holds exactly that value; otherwise why not. A double holds 15 to 17
 * significant digits: `12345678901234567890.99` would arrive as 12345678901234567000, which is
 * refused rather than sent. What the platform reads as a JSON number is a double as well, so
 * writing more digits would not keep them either.
 */
export function exactNumber(literal: string): ExactNumber {
  const value = Number(literal);
  if (!Number.isFinite(value)) {
    return { problem: `${literal} is beyond the largest number JSON can carry` };
  }
  if (valueKey(literal) === valueKey(plainNumber(value))) return { value };
  return {
    problem: `${literal} has more digits than a JSON number keeps exactly (15 to 17); it would arrive as ${plainNumber(value)}: send fewer digits, or the value as text where the field takes text`,
  };
}
