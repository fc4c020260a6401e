import { readNumber, readNumberText, type NumberGrammar } from './numbers.js';
import { hasLeaf, type Shape } from './shape.js';

/** A cell's value, or why its text is not what its field holds. */
export type Typed = { value: unknown } | { problem: string };

const TRUE = new Set(['true', '1', 'ja', 'yes', 'x']);
const FALSE = new Set(['false', '0', 'nein', 'no']);

export function toBoolean(text: string): Typed {
  const lower = text.trim().toLowerCase();
  if (TRUE.has(lower)) return { value: true };
  if (FALSE.has(lower)) return { value: false };
  return { problem: `expected true or false, got "${text}"` };
}

const hasOption = (shape: Shape, type: string) => hasLeaf(shape, (leaf) => leaf.type === type);

/**
 * A cell's text typed as the message's schema has the field, so that the contract's schema stays
 * the one place that knows field types: a number read by the field's grammar without the blanks
 * around it (decimal text with a point where the platform holds it as text, `1.000,50` →
 * `1000.50`), true/false, a list written `a|b|c` in one cell, text as it is.
 */
export function typedCell(shape: Shape, text: string, number: NumberGrammar): Typed {
  if (shape.kind === 'array') {
    const values: unknown[] = [];
    for (const part of text.split('|')) {
      const one = typedCell(shape.item, part.trim(), number);
      if ('problem' in one) return one;
      values.push(one.value);
    }
    return { value: values };
  }
  if (hasLeaf(shape, (leaf) => leaf.decimal === true)) {
    const read = readNumberText(text.trim(), number);
    return 'problem' in read ? read : { value: read.text };
  }
  if (hasOption(shape, 'string')) return { value: text };
  if (hasOption(shape, 'number')) return readNumber(text.trim(), number);
  if (hasOption(shape, 'boolean')) return toBoolean(text);
  return { value: text };
}
