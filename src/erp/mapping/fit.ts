import type { JsonType, Shape } from './shape.js';

/** Which shape a JSON value fits, for the walker and the pruning alike. */

export type Received = JsonType | 'object' | 'array';

export const receivedOf = (value: unknown): Received =>
  Array.isArray(value) ? 'array' : (typeof value as Received);

function accepts(shape: Shape, received: Received): boolean {
  switch (shape.kind) {
    case 'open':
      return true;
    case 'leaf':
      return shape.type === received;
    case 'array':
      return received === 'array';
    case 'union':
      return shape.options.some((option) => accepts(option, received));
    default:
      return received === 'object';
  }
}

function knownKeys(shape: Shape, value: object): number {
  if (shape.kind !== 'object') return 0;
  return Object.keys(value).filter((key) => shape.fields.has(key)).length;
}

/**
 * The shape a value is checked against: for a union, the option whose type fits the value
 * (of several object options, the one knowing most of its keys); undefined when none fits.
 */
export function shapeFor(shape: Shape, value: unknown): Shape | undefined {
  const received = receivedOf(value);
  if (shape.kind !== 'union') return accepts(shape, received) ? shape : undefined;
  const fitting = shape.options.filter((option) => accepts(option, received));
  if (fitting.length <= 1 || received !== 'object') return fitting[0];
  const object = value as object;
  return fitting.reduce((best, option) =>
    knownKeys(option, object) > knownKeys(best, object) ? option : best,
  );
}

export function expectedText(shape: Shape): string {
  if (shape.kind === 'union') return [...new Set(shape.options.map(expectedText))].join(' or ');
  if (shape.kind === 'leaf') return shape.type;
  return shape.kind === 'array' ? 'array' : 'object';
}
