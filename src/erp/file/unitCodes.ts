/**
 * The platform's order line units are free German text (`Stück`, `Packung`, `m`). openTRANS
 * wants a UN/ECE Recommendation 20 code in ORDER_UNIT; packagings use Rec 20's `X` + Rec 21
 * codes. Units not listed here are written as `C62` (one) with the platform's text in REMARKS.
 */
const UNIT_CODES: Readonly<Record<string, string>> = {
  stück: 'C62',
  stk: 'C62',
  st: 'C62',
  einzeln: 'C62',
  paar: 'PR',
  set: 'SET',
  packung: 'XPK',
  pack: 'XPK',
  pck: 'XPK',
  pkg: 'XPK',
  karton: 'XCT',
  schachtel: 'XBX',
  box: 'XBX',
  dose: 'XCX',
  flasche: 'XBO',
  beutel: 'XBG',
  tube: 'XTU',
  rolle: 'XRO',
  m: 'MTR',
  meter: 'MTR',
  cm: 'CMT',
  l: 'LTR',
  liter: 'LTR',
  ml: 'MLT',
  g: 'GRM',
  kg: 'KGM',
};

/** The default when the platform names no unit or one we cannot map. */
export const UNIT_ONE = 'C62';

/** The Rec 20 code for a platform unit, or undefined when it has none here. */
export function unitCode(unit: string): string | undefined {
  return UNIT_CODES[unit.trim().toLowerCase().replace(/\.$/, '')];
}
