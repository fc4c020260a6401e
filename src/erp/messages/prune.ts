import { shapeFor } from '../mapping/fit.js';
import type { Shape } from '../mapping/shape.js';

/**
 * `json` without the fields the shape does not know (`inbound.unknownFields: drop`), after
 * `checkFields` passed it. Objects are built anew: the caller's message is not written into.
 */
export function withoutUnknown(shape: Shape, json: unknown): unknown {
  if (json === null || typeof json !== 'object') return json;
  const fitting = shapeFor(shape, json) ?? shape;
  if (Array.isArray(json)) {
    const item = fitting.kind === 'array' ? fitting.item : fitting;
    return json.map((entry) => withoutUnknown(item, entry));
  }
  if (fitting.kind === 'record') {
    const values = Object.entries(json).map(([key, value]) => [
      key,
      withoutUnknown(fitting.value, value),
    ]);
    return Object.fromEntries(values);
  }
  if (fitting.kind !== 'object') return json;
  const kept = Object.entries(json).flatMap(([key, value]) => {
    const known = fitting.fields.get(key);
    return known === undefined ? [] : [[key, withoutUnknown(known, value)] as const];
  });
  return Object.fromEntries(kept);
}
