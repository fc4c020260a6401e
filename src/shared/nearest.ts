import { distance } from 'fastest-levenshtein';

/** A misspelling this many edits away from a known field is still named as that field. */
const MAX_EDITS = 2;

/**
 * The known field `name` is most likely a misspelling of (case does not count), or undefined.
 * Short names need a closer match: `id` is one edit from `_id` but two from any two letters.
 */
export function nearestField(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: { field: string; edits: number } | undefined;
  for (const field of known) {
    // Lengths further apart need more edits: a long hostile name is not compared at all.
    if (Math.abs(field.length - wanted.length) > MAX_EDITS) continue;
    const edits = distance(wanted, field.toLowerCase());
    const close = edits <= MAX_EDITS && edits * 2 < Math.max(wanted.length, field.length);
    if (close && (best === undefined || edits < best.edits)) best = { field, edits };
  }
  return best?.field;
}
