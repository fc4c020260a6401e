import { nearestField } from '../../shared/nearest.js';
import { bareObject } from '../../shared/objects.js';
import type { Shape } from './shape.js';

/** A step of a dot path: a field name, or a list entry by its number (from 0). */
export type Segment = string | number;

/** `trackingInfo.0.trackingCode` → `['trackingInfo', 0, 'trackingCode']`. */
export function parsePath(text: string): Segment[] {
  return text.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export const pathText = (path: readonly Segment[]): string => path.map(String).join('.');

/** Where a path leads in a shape, and whether it goes through the lines (once per line). */
type Resolved = { ok: true; shape: Shape; perLine: boolean } | { ok: false; message: string };

/** Field names listed in a problem at most, so a wide entity does not flood the message. */
const LISTED_FIELDS = 12;

function unknownField(prefix: readonly Segment[], key: string, fields: Iterable<string>): string {
  const names = [...fields];
  const near = nearestField(key, names);
  const guess = near === undefined ? '' : ` (did you mean ${[...prefix, near].join('.')}?)`;
  const where = prefix.length === 0 ? 'the record' : pathText(prefix);
  const known = names.slice(0, LISTED_FIELDS).join(', ');
  const more = names.length > LISTED_FIELDS ? ', …' : '';
  return `${where} has no field ${key}${guess}; its fields: ${known}${more}`;
}

interface Walk {
  path: readonly Segment[];
  /** The one list a path may go through without a number: the order lines. */
  linesField: string | undefined;
  perLine: boolean;
}

function step(walk: Walk, shape: Shape, at: number): Resolved {
  const key = walk.path[at];
  if (key === undefined) return { ok: true, shape, perLine: walk.perLine };
  const prefix = walk.path.slice(0, at);
  switch (shape.kind) {
    case 'open':
      return { ok: true, shape, perLine: walk.perLine };
    case 'record':
      return step(walk, shape.value, at + 1);
    case 'union': {
      const tried = shape.options.map((option) => step(walk, option, at));
      return tried.find((result) => result.ok) ?? tried[0] ?? { ok: true, shape, perLine: false };
    }
    case 'leaf':
      return { ok: false, message: `${pathText(prefix)} is a value; it has no field ${key}` };
    case 'array':
      if (typeof key === 'number') return step(walk, shape.item, at + 1);
      if (at === 1 && prefix[0] === walk.linesField) {
        return step({ ...walk, perLine: true }, shape.item, at);
      }
      return {
        ok: false,
        message: `${pathText(prefix)} is a list: name an entry by its number, e.g. ${pathText([...prefix, 0, key])}`,
      };
    case 'object': {
      const field = typeof key === 'string' ? shape.fields.get(key) : undefined;
      if (field !== undefined) return step(walk, field, at + 1);
      if (typeof key === 'number') {
        return { ok: false, message: `${pathText(prefix)} is no list; remove .${key}` };
      }
      return { ok: false, message: unknownField(prefix, key, shape.fields.keys()) };
    }
  }
}

/**
 * Follows `path` through `shape`. A number names a list entry; the list `linesField` may also
 * be gone through without one, which makes the path one value per line.
 */
export function resolvePath(
  shape: Shape,
  path: readonly Segment[],
  linesField: string | undefined,
): Resolved {
  return step({ path, linesField, perLine: false }, shape, 0);
}

/** Whether a shape holds one plain value (or a list of them), what a cell can say. */
export function isScalarShape(shape: Shape): boolean {
  switch (shape.kind) {
    case 'leaf':
    case 'open':
      return true;
    case 'union':
      return shape.options.every(isScalarShape);
    case 'array':
      return shape.item.kind === 'leaf';
    default:
      return false;
  }
}

/** The fields of an object shape, for a problem that asks for one of them. */
export function fieldNames(shape: Shape): string[] {
  return shape.kind === 'object' ? [...shape.fields.keys()] : [];
}

/**
 * Sets `value` at `path` below `target`, making what is missing on the way: an object, or a list
 * before a number; a plain value in the way is replaced. The objects are made without
 * prototypes, so a key `__proto__` from a file or a config stays a key (shared/objects.ts).
 */
export function setAt(
  target: Record<string, unknown>,
  path: readonly Segment[],
  value: unknown,
): void {
  let current: Record<string | number, unknown> = target;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      current[key] = value;
      return;
    }
    const next = Object.hasOwn(current, key) ? current[key] : undefined;
    if (next === null || typeof next !== 'object') {
      current[key] = typeof path[index + 1] === 'number' ? [] : bareObject();
    }
    current = current[key] as Record<string | number, unknown>;
  });
}
