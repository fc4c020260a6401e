/**
 * German identification numbers with their real check-digit rules, so seed data passes the
 * same plausibility checks an ERP runs on imports.
 */

const digitsOf = (text: string): number[] => [...text].map(Number);

/** PZN check digit of seven digits: weights 1..7, modulo 11; 10 means no valid PZN. */
export function pznCheckDigit(body: string): number {
  const sum = digitsOf(body).reduce((acc, digit, i) => acc + digit * (i + 1), 0);
  return sum % 11;
}

/** Is `pzn` an 8-digit PZN whose last digit is its check digit? */
export function isValidPzn(pzn: string): boolean {
  if (!/^\d{8}$/.test(pzn)) return false;
  const check = pznCheckDigit(pzn.slice(0, 7));
  return check !== 10 && check === Number(pzn[7]);
}

/** The PZN for seven digits, or undefined when their check digit would be 10. */
export function pznFrom(body: string): string | undefined {
  const check = pznCheckDigit(body);
  return check === 10 ? undefined : `${body}${check}`;
}

/** EAN-13 check digit of twelve digits: weights 1 and 3 alternating, to the next ten. */
export function ean13From(body: string): string {
  const sum = digitsOf(body).reduce((acc, digit, i) => acc + digit * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * LANR (lifelong doctor number): six-digit serial, a check digit (weights 4 and 9 alternating,
 * 10 minus the last digit of the sum) and the two-digit specialist group.
 */
export function lanrFrom(serial: string, specialistGroup: string): string {
  const sum = digitsOf(serial).reduce((acc, digit, i) => acc + digit * (i % 2 === 0 ? 4 : 9), 0);
  return `${serial}${(10 - (sum % 10)) % 10}${specialistGroup}`;
}
