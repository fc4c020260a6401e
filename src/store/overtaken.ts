import { query } from './statements.js';
import type { Store } from './store.js';

/**
 * Why an ERP message was refused as overtaken (store/inbox.ts): the newer message of its entity
 * it was measured against, and whether it said the same as an earlier message (the ERP's older
 * word again) or carried an older ERP stamp.
 */
export interface Overtaking {
  by: { name: string; source: string; receivedAt: string };
  /** Set when the ERP's stamps decided: the refused message's and the newer one's. */
  stamps?: { given: string; last: string };
}

/** How the refusal's text starts, for a message refused as overtaken. */
const OVERTAKEN = 'overtaken:';

/** How a text names a message: as it is, or as an output shows it (a file's label). */
export type MessageNaming = (name: string, source: string) => string;

const asIs: MessageNaming = (name) => name;

/** The reason in words, naming the newer message with `named`. */
export function overtakenText(overtaking: Overtaking, named: MessageNaming = asIs): string {
  const { by, stamps } = overtaking;
  const newer = `${named(by.name, by.source)}, handled ${by.receivedAt}`;
  return stamps === undefined
    ? `${OVERTAKEN} the same was said before, and ${newer}, is newer; not written`
    : `${OVERTAKEN} its erpTimestamp ${stamps.given} is older than ${stamps.last} of ${newer}; not written`;
}

/** A message refused as overtaken, as inbox_messages keeps it. */
export interface OvertakenRow {
  id: number;
  kind: string;
  entity: string | null;
  stamp: string | null;
  repeat_of: number | null;
  /** The refusal's text: `overtaken: …` for a message refused as overtaken. */
  error: string | null;
}

/**
 * The overtaking of a message refused as overtaken, read again: the last message of its entity
 * handled before it (ids only grow), and the stamps where no earlier message said the same.
 * Undefined for any other message (one given up when its patient was erased).
 */
export function overtakingOf(store: Store, row: OvertakenRow): Overtaking | undefined {
  if (row.error?.startsWith(OVERTAKEN) !== true) return undefined;
  const last = query<
    Record<string, string | number | null>,
    { name: string; source: string; received_at: string; stamp: string | null }
  >(
    store.db,
    `SELECT name, source, received_at, stamp FROM inbox_messages INDEXED BY inbox_messages_entity
     WHERE entity = @entity AND kind = @kind AND id < @id AND state = 'done'
     ORDER BY id DESC LIMIT 1`,
    { name: 'text', source: 'text', received_at: 'text', stamp: 'text?' },
  ).get({ entity: row.entity, kind: row.kind, id: row.id });
  if (last === undefined || row.entity === null) return undefined;
  const by = { name: last.name, source: last.source, receivedAt: last.received_at };
  if (row.repeat_of !== null || row.stamp === null || last.stamp == null) return { by };
  return { by, stamps: { given: row.stamp, last: last.stamp } };
}
