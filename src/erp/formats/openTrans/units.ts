/**
 * The platform's order line units are free German text (`Stück`, `Packung`, `m`). openTRANS 2.1
 * types ORDER_UNIT as BMEcat 2005's `dtPUNIT`, a closed list of UN/ECE Recommendation 20 codes
 * (the 2005 revision): packagings are its plain two-letter codes (`PK` pack, `BO` bottle), not
 * the later `X` + Rec 21 codes, which that list does not hold. Units not listed here are written
 * as `C62` (one) with the platform's text in REMARKS.
 */
export const UNIT_CODES: Readonly<Record<string, string>> = {
  stück: 'C62',
  stk: 'C62',
  st: 'C62',
  einzeln: 'C62',
  paar: 'PR',
  set: 'SET',
  packung: 'PK',
  pack: 'PK',
  pck: 'PK',
  pkg: 'PK',
  karton: 'CT',
  schachtel: 'BX',
  box: 'BX',
  dose: 'CA',
  flasche: 'BO',
  beutel: 'BG',
  tube: 'TU',
  rolle: 'RO',
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

/** What a unit is looked up by: its text without case, outer spaces or a closing dot. */
const unitKey = (unit: string): string => unit.trim().toLowerCase().replace(/\.$/, '');

/** The value table (platform unit → BMEcat code) looked up before this file's. */
export const OPENTRANS_UNITS_TABLE = 'openTransUnits';

export type UnitTable = Readonly<Record<string, string | number | boolean>>;

/** The BMEcat code for a platform unit, `own` first, or undefined when neither has one. */
export function unitCode(unit: string, own: UnitTable = {}): string | undefined {
  const key = unitKey(unit);
  const given = Object.entries(own).find(([name]) => unitKey(name) === key)?.[1];
  return given === undefined ? UNIT_CODES[key] : String(given);
}
