import { PLAIN_DECIMAL } from '../../shared/decimals.js';
import { nearestField } from '../../shared/nearest.js';
import { expectedText, receivedOf, shapeFor, type Shape } from '../mapping/shape.js';
import { fieldPathText, pathText, ProblemList, type PathPart } from './problems.js';

/** What happens to a field the contract does not define (`inbound.unknownFields`). */
export const UNKNOWN_FIELDS = ['refuse', 'drop'] as const;
export type UnknownFields = (typeof UNKNOWN_FIELDS)[number];

export interface FieldCheck {
  problems: ProblemList;
  /** In `drop` mode: the unknown fields met, by path without list entries (`lines.*.note`). */
  dropped: string[];
}

interface Walk {
  problems: ProblemList;
  unknownFields: UnknownFields;
  dropped: Set<string>;
  path: PathPart[];
}

/** Words cost more than the walk: they are made only for a listed problem, while it is met. */
function report(walk: Walk, message: () => string): void {
  walk.problems.add(() => ({ path: pathText(walk.path), message: message() }));
}

function unknownField(walk: Walk, key: string, known: ReadonlyMap<string, Shape>): void {
  if (walk.unknownFields === 'refuse' && walk.problems.full) {
    walk.problems.countMore();
    return;
  }
  walk.path.push(key);
  if (walk.unknownFields === 'drop') walk.dropped.add(fieldPathText(walk.path));
  else {
    report(walk, () => {
      const near = nearestField(key, known.keys());
      const hint = near === undefined ? '' : ` (did you mean "${near}"?)`;
      return `unknown field${hint}: the platform's contract does not define it here; remove or rename it, or set inbound.unknownFields: drop to have such fields left out`;
    });
  }
  walk.path.pop();
}

function walkEntry(walk: Walk, key: PathPart, shape: Shape, value: unknown): void {
  walk.path.push(key);
  walkValue(walk, shape, value);
  walk.path.pop();
}

/** C0 control characters but tab, line feed and carriage return: no text of the contract holds one. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

function controlProblem(text: string): string | undefined {
  const at = text.search(CONTROL);
  if (at === -1) return undefined;
  const code = text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  return `holds the control character U+${code} at character ${at + 1}; text may hold tab, line feed and carriage return, no other control character: correct the ERP's export`;
}

function walkObject(walk: Walk, shape: Shape, value: Record<string, unknown>): void {
  const keys = Object.keys(value);
  for (const key of keys) {
    // A field of a known object is known by its name; a name with a control character is none.
    const control = shape.kind === 'object' ? undefined : controlProblem(key);
    if (control !== undefined) {
      walk.path.push(key.replace(CONTROL, '?'));
      report(walk, () => `the field name ${control}`);
      walk.path.pop();
      continue;
    }
    // Own keys (Object.keys), read only when known: nothing inherited, not even `constructor`.
    if (shape.kind !== 'object') walkEntry(walk, key, fieldShape(shape), value[key]);
    else {
      const known = shape.fields.get(key);
      if (known === undefined) unknownField(walk, key, shape.fields);
      else walkEntry(walk, key, known, value[key]);
    }
  }
}

/** The shape of any field of a record or an open object. */
const fieldShape = (shape: Shape): Shape => (shape.kind === 'record' ? shape.value : shape);

function walkArray(walk: Walk, shape: Shape, value: readonly unknown[]): void {
  const item = shape.kind === 'array' ? shape.item : shape;
  value.forEach((entry, index) => walkEntry(walk, index, item, entry));
}

/** An enumeration's value, in zod's words, so that both stages read alike. */
function checkOption(walk: Walk, values: readonly (string | number)[], value: unknown): void {
  if (values.some((option) => option === value)) return;
  const options = values.map((option) => JSON.stringify(option)).join('|');
  report(walk, () => `Invalid option: expected one of ${options}`);
}

/** A decimal the platform holds as text is its digits with a point: `"1000.50"`, not `"1.000,50"`. */
function checkDecimal(walk: Walk, value: unknown): void {
  if (typeof value !== 'string' || value === '' || PLAIN_DECIMAL.test(value)) return;
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  report(
    walk,
    () =>
      `"${shown}" is no decimal as the platform writes it: digits, with a point before the decimals (1000.50)`,
  );
}

function walkValue(walk: Walk, declared: Shape, value: unknown): void {
  // Whether a field may be missing or null is the schemas' business (run after this walk).
  if (value === null || value === undefined) return;
  if (typeof value === 'number' && !Number.isFinite(value)) {
    report(walk, () => 'not a finite number: send a number JSON can carry (this one overflows)');
    return;
  }
  if (typeof value === 'string') {
    const control = controlProblem(value);
    if (control !== undefined) {
      report(walk, () => `the text ${control}`);
      return;
    }
  }
  const shape = shapeFor(declared, value);
  if (shape === undefined) {
    const received = receivedOf(value);
    report(walk, () => `Invalid input: expected ${expectedText(declared)}, received ${received}`);
    return;
  }
  if (shape.kind === 'leaf' && shape.values !== undefined) checkOption(walk, shape.values, value);
  else if (shape.kind === 'leaf' && shape.decimal === true) checkDecimal(walk, value);
  else if (Array.isArray(value)) walkArray(walk, shape, value);
  else if (typeof value === 'object') walkObject(walk, shape, value as Record<string, unknown>);
}

/**
 * One pass over a parsed message against its kind's shape, before any schema runs: unknown
 * fields (refused, or noted to be dropped), numbers that are not finite, wrong JSON types, text
 * with control characters, decimals not written as the platform writes them. Cheap whatever the
 * message holds: its size was bounded before the parse, and only listed problems are worded.
 */
export function checkFields(shape: Shape, json: unknown, unknownFields: UnknownFields): FieldCheck {
  const walk: Walk = { problems: new ProblemList(), unknownFields, dropped: new Set(), path: [] };
  walkValue(walk, shape, json);
  return { problems: walk.problems, dropped: [...walk.dropped] };
}

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
