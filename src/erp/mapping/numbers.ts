import { exactNumber } from '../../shared/decimals.js';

/**
 * How the ERP writes numbers: the one grammar a cell is read by, strict so that no value is read
 * as another (`1.000` as 1, `0x10` as 16). An optional `-`, digits, and the decimal separator
 * (`,` with the decimal comma, else `.`) with digits. The other character separates thousands in
 * groups of three where it cannot be the decimal one: beside it (`1.000,50`), or alone where the
 * field's `number` pattern groups thousands (`#.##0`). Other forms are refused with the reason.
 */
export interface NumberGrammar {
  decimal: ',' | '.';
  /** The thousands separator the field's pattern names, which is then read even alone. */
  grouping: string | undefined;
  /** With a pattern: the most decimals it takes (0 without a decimal part). */
  decimals: number | undefined;
}

/** Characters a number pattern may separate thousands with. */
const GROUPING = ['.', ',', "'", ' '];

const decimalOf = (decimalComma: boolean): ',' | '.' => (decimalComma ? ',' : '.');

type PatternParts = { grouping: string | undefined; decimals: number | undefined };

function patternParts(pattern: string, decimal: string): PatternParts | undefined {
  const [whole = '', fraction, more] = pattern.split(decimal);
  if (more !== undefined || (fraction !== undefined && !/^[#0]+$/.test(fraction))) return undefined;
  const decimals = fraction?.length ?? 0;
  if (/^[#0]+$/.test(whole)) return { grouping: undefined, decimals };
  const grouping = whole.replace(/[#0]/g, '')[0];
  if (grouping === undefined || !GROUPING.includes(grouping)) return undefined;
  const grouped = new RegExp(`^[#0]{1,3}(?:\\${grouping}[#0]{3})+$`);
  return grouped.test(whole) ? { grouping, decimals } : undefined;
}

/**
 * Why `pattern` is no number pattern for a field of that decimal separator, or undefined: `#`
 * and `0` for digits, a thousands separator between groups of three, the decimal separator
 * before the decimals it takes at most (`#.##0,00`, `#,##0.00`, `0,000`).
 */
export function numberPatternProblem(pattern: string, decimalComma: boolean): string | undefined {
  const decimal = decimalOf(decimalComma);
  if (patternParts(pattern, decimal) !== undefined) return undefined;
  const example = decimalComma ? '#.##0,00' : '#,##0.00';
  return `${pattern} is no number pattern: # and 0 for digits, a thousands separator (${GROUPING.map((c) => `"${c}"`).join(', ')}) between groups of three, then "${decimal}" (the decimal separator, by decimalComma) and the decimals taken at most, e.g. ${example}`;
}

/** The grammar of a field: its decimal separator, and what its `number` pattern says. */
export function numberGrammar(decimalComma: boolean, pattern?: string): NumberGrammar {
  const decimal = decimalOf(decimalComma);
  const parts = pattern === undefined ? undefined : patternParts(pattern, decimal);
  return { decimal, grouping: parts?.grouping, decimals: parts?.decimals };
}

export type NumberText = { text: string } | { problem: string };

const refused = (text: string, why?: string): NumberText => ({
  problem: `expected a number, got "${text}"${why === undefined ? '' : `: ${why}`}`,
});

/** The digits of `whole` without thousands separators, or why they are not read. */
function groupedWhole(
  text: string,
  whole: string,
  grammar: NumberGrammar,
  hasDecimals: boolean,
): string | NumberText {
  const separator = grammar.grouping ?? (grammar.decimal === ',' ? '.' : ',');
  if (/^\d+$/.test(whole)) return whole;
  if (!whole.includes(separator) || !/^\d/.test(whole)) return refused(text);
  const groups = new RegExp(`^\\d{1,3}(?:\\${separator}\\d{3})+$`);
  if (!groups.test(whole)) {
    // Without a pattern, the separator may be the decimal one of an ERP written the other way.
    const comma = separator === ',';
    const other = `a decimal ${comma ? 'comma' : 'point'}, set decimalComma: ${String(comma)}`;
    const hint = grammar.grouping === undefined ? `; if the ERP writes ${other}` : '';
    return refused(
      text,
      `"${separator}" separates thousands in groups of three here, and "${grammar.decimal}" is the decimal separator${hint}`,
    );
  }
  if (grammar.grouping === undefined && !hasDecimals) {
    return refused(
      text,
      `a "${separator}" alone may group thousands or be a decimal separator; write it without (${whole.replaceAll(separator, '')}), or give the field a number pattern that groups thousands (number: '#${separator}##0')`,
    );
  }
  return whole.replaceAll(separator, '');
}

/**
 * `text` read by `grammar` as decimal text with a point (`1.000,50` → `1000.50`): the ERP's
 * digits kept (its decimals too), only the separators changed. Or why it is no number.
 */
export function readNumberText(text: string, grammar: NumberGrammar): NumberText {
  if (/^[+-]?0[xob]/i.test(text)) {
    return refused(text, 'a hexadecimal, octal or binary form; write it in decimal digits');
  }
  if (/^[+-]?[\d.,]*\d[eE][+-]?\d+$/.test(text)) {
    return refused(text, 'an exponent form; write out all its digits');
  }
  if (text.startsWith('+')) return refused(text, 'write it without "+"');
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const [whole = '', fraction, more] = body.split(grammar.decimal);
  if (more !== undefined) return refused(text, `more than one "${grammar.decimal}"`);
  if (fraction !== undefined && !/^\d+$/.test(fraction)) return refused(text);
  if (whole === '') return refused(text, `write a digit before "${grammar.decimal}"`);
  const digits = groupedWhole(text, whole, grammar, fraction !== undefined);
  if (typeof digits !== 'string') return digits;
  if (grammar.decimals !== undefined && (fraction?.length ?? 0) > grammar.decimals) {
    return refused(text, `the field's number pattern takes at most ${grammar.decimals} decimals`);
  }
  const plain = digits.replace(/^0+(?=\d)/, '') + (fraction === undefined ? '' : `.${fraction}`);
  return { text: negative ? `-${plain}` : plain };
}

export type NumberValue = { value: number } | { problem: string };

/** `text` as the JSON number the platform gets, when a JSON number holds its digits exactly. */
export function readNumber(text: string, grammar: NumberGrammar): NumberValue {
  const read = readNumberText(text, grammar);
  if ('problem' in read) return read;
  const exact = exactNumber(read.text);
  return 'problem' in exact ? { problem: `"${text}": ${exact.problem}` } : exact;
}
