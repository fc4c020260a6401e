import { sameJson } from '../../shared/canonicalJson.js';
import { bareObject, isPlainObject } from '../../shared/objects.js';
import type { InboxKind } from './kinds.js';
import type { Problem } from './problems.js';
import { ERP_STAMP } from './stamp.js';
import { inboxProblems } from './check.js';

type Body = Record<string, unknown>;

/** Where a row of a file stands, as its problems name it (CSV line or row, XML element). */
export type RowPlace = Pick<Problem, 'line' | 'row' | 'element'>;

/** One message of a file as read, before the rows of one business key are merged. */
export interface RowMessage {
  body: Body;
  stamp?: string;
  /** Its rows (CSV lines or rows, XML records) by number, as its name gives them. */
  rows: number[];
  /** Where each of its rows stands, for a problem about them. */
  places: RowPlace[];
}

/** One message per business key, in the order of each key's first row; the rows refused. */
export interface Merged {
  messages: RowMessage[];
  problems: Problem[];
}

type Merge = { ok: true; value: unknown } | { ok: false; path: string; values: [unknown, unknown] };

/**
 * One value of two rows' values: what one row leaves out the other gives; lists are joined, an
 * entry the same in every field taken once (a parcel on every row of its order's lines);
 * objects are merged field by field; two different plain values disagree.
 */
function mergeValue(left: unknown, right: unknown, path: string): Merge {
  if (left === undefined) return { ok: true, value: right };
  if (right === undefined || sameJson(left, right)) return { ok: true, value: left };
  if (Array.isArray(left) && Array.isArray(right)) {
    const known: readonly unknown[] = left;
    const added = (right as readonly unknown[]).filter(
      (entry) => !known.some((entry2) => sameJson(entry2, entry)),
    );
    return { ok: true, value: [...known, ...added] };
  }
  if (isPlainObject(left) && isPlainObject(right)) return mergeBodies(left, right, path);
  return { ok: false, path, values: [left, right] };
}

function mergeBodies(left: Body, right: Body, at = ''): Merge {
  // Keys come from the ERP's file: one named `__proto__` stays a key (shared/objects.ts).
  const merged = Object.assign(bareObject(), left);
  for (const [field, value] of Object.entries(right)) {
    const result = mergeValue(left[field], value, at === '' ? field : `${at}.${field}`);
    if (!result.ok) return result;
    merged[field] = result.value;
  }
  return { ok: true, value: merged };
}

/** `rows 2 and 4`, `records 1, 3 and 4`. */
function listed(noun: string, rows: readonly number[]): string {
  const numbers = rows.map(String);
  const last = numbers.pop();
  const start = numbers.length === 0 ? '' : `${numbers.join(', ')} and `;
  return `${noun}s ${start}${last ?? ''}`;
}

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

/** The rows of one key as one message (a row alone as it is), or why they are refused together. */
function mergeGroup(
  kind: InboxKind,
  key: string,
  group: readonly RowMessage[],
  noun: string,
  check: (body: Body) => readonly Problem[],
): RowMessage | Problem[] {
  const [only] = group;
  if (group.length === 1 && only !== undefined) return only;
  const rows = group.flatMap((read) => read.rows).sort((a, b) => a - b);
  const refuse = (path: string, says: (rows: string) => string): Problem[] => {
    const message = `${says(listed(noun, rows))}; none of them is taken (they are one ${kind.name} message, ${key})`;
    return group.flatMap((read) => read.places.map((place) => ({ ...place, path, message })));
  };
  const stamps = [...new Set(group.flatMap((read) => read.stamp ?? []))];
  if (stamps.length > 1) {
    const [one, other] = stamps.map(shown);
    return refuse(
      ERP_STAMP,
      (rows) => `${rows} say two values of ${ERP_STAMP}: ${one} and ${other}; make them agree`,
    );
  }
  let merged: Merge = { ok: true, value: bareObject() };
  for (const read of group) if (merged.ok) merged = mergeValue(merged.value, read.body, '');
  if (!merged.ok) {
    const { path } = merged;
    const [one, other] = merged.values.map(shown);
    return refuse(
      path,
      (rows) =>
        `${rows} say two values of ${path}: ${one} and ${other}; make them agree, or leave the field empty in all but one`,
    );
  }
  const body = merged.value as Body;
  const [problem] = check(body);
  if (problem !== undefined) {
    return refuse(
      problem.path ?? '',
      (rows) => `${rows} together are no valid message: ${problem.message}`,
    );
  }
  const [stamp] = stamps;
  const places = group.flatMap((read) => read.places);
  return { body, ...(stamp === undefined ? {} : { stamp }), rows, places };
}

/**
 * One message per business key of the file (design.md, Wave 4): the rows of one key merged,
 * where the kind holds lists (an order's lines, its parcels) joined; rows of one key that give
 * two values of a single-valued field are refused together, each named with the field. `noun`
 * names a row in the problems (`row`, `record`); `check` checks a merged message as any message
 * of the kind is checked (a list may have grown past its bound).
 */
export function mergeByKey(
  kind: InboxKind,
  read: readonly RowMessage[],
  noun: string,
  check: (body: Body) => readonly Problem[],
): Merged {
  const groups = new Map<string, RowMessage[]>();
  for (const message of read) {
    const key = kind.key(message.body);
    groups.set(key, [...(groups.get(key) ?? []), message]);
  }
  const messages: RowMessage[] = [];
  const problems: Problem[] = [];
  for (const [key, group] of groups) {
    const merged = mergeGroup(kind, key, group, noun, check);
    if (Array.isArray(merged)) problems.push(...merged);
    else messages.push(merged);
  }
  return { messages, problems };
}

/**
 * The good records' messages, less those of a key a bad record of the file has too: the rows of
 * one key are one message, which one bad row leaves incomplete (an ERP order without a line).
 */
function withoutBadKeys(
  kind: InboxKind,
  good: readonly RowMessage[],
  badKeys: ReadonlySet<string>,
  noun: string,
): { kept: RowMessage[]; left: Problem[] } {
  const kept: RowMessage[] = [];
  const left: Problem[] = [];
  for (const message of good) {
    const key = kind.key(message.body);
    if (!badKeys.has(key)) kept.push(message);
    else {
      const why = `left out: another ${noun} of ${key} has a problem, and the ${noun}s of one ${kind.name} message go together`;
      left.push(...message.places.map((place) => ({ ...place, message: why })));
    }
  }
  return { kept, left };
}

/**
 * The messages of a file's good rows, one per business key (mergeByKey), checked as any message
 * of `kind`; `badKeys`: the keys of the file's bad rows, whose other rows are left out too.
 */
export function oneMessagePerKey(
  kind: InboxKind,
  good: readonly RowMessage[],
  badKeys: ReadonlySet<string>,
  noun: string,
): Merged {
  const { kept, left } = withoutBadKeys(kind, good, badKeys, noun);
  const merged = mergeByKey(kind, kept, noun, (body) => inboxProblems(kind, body));
  return { messages: merged.messages, problems: [...left, ...merged.problems] };
}
