import {
  inboxMessageOfKey,
  overtakenText,
  overtakingOf,
  replayedName,
  type InboxMessageKey,
  type OvertakenRow,
  type RecordSubject,
  type Store,
} from '../store/index.js';

import { query } from '../store/statements.js';
import type { TraceEvent } from './event.js';

/** The ERP's messages in a record's timeline (timeline.ts). */

/** How a timeline shows the other side's texts and the ERP's file names. */
export interface Mask {
  text: (text: string) => string;
  name: (name: string) => string;
}

export const SHOWN: Mask = { text: (text) => text, name: (name) => name };

/** The ERP message an inbox job came from (its key names it: inboxMessageOfKey). */
export function messageOf(
  store: Store,
  job: { id: number; idempotency_key: string | null },
  mask: Mask,
): TraceEvent | undefined {
  const message = inboxMessageOfKey(job.idempotency_key ?? undefined);
  if (message === undefined) return undefined;
  const row = query<InboxMessageKey, { received_at: string }>(
    store.db,
    `SELECT received_at FROM inbox_messages
     WHERE kind = @kind AND source = @source AND name = @name AND sha256 = @sha256
     ORDER BY id LIMIT 1`,
    { received_at: 'text' },
  ).get(message);
  if (row === undefined) return undefined;
  const { kind, source, name } = message;
  const from = source === 'file' ? 'file' : 'request';
  // A replay's name is the first message's with its mark (jobKeys.ts): the link between the two.
  const first = replayedName(name);
  const what =
    first === undefined
      ? `ERP ${kind} ${from} ${mask.name(name)} received`
      : `ERP ${kind} ${from} ${mask.name(first)} replayed by an operator, as a new message`;
  return { at: row.received_at, kind: 'message', what, job: job.id };
}

interface UnqueuedRow extends OvertakenRow {
  source: string;
  name: string;
  received_at: string;
  state: string;
  error: string | null;
  first: string | null;
}

/** Why a message was refused, its names masked as the timeline's are. */
function refusal(store: Store, row: UnqueuedRow, mask: Mask): string {
  const overtaking = overtakingOf(store, row);
  if (overtaking === undefined) return mask.text(row.error ?? 'rejected');
  return overtakenText(overtaking, (name) => mask.name(name));
}

/**
 * The ERP's messages about the subject that queued no job: a repeat of an earlier message (the
 * same content under another name) and one refused, as overtaken by a newer one.
 */
export function unqueuedMessageEvents(
  store: Store,
  subject: RecordSubject,
  mask: Mask,
): TraceEvent[] {
  const rows = query<{ keys: string }, UnqueuedRow>(
    store.db,
    `SELECT m.id, m.kind, m.entity, m.stamp, m.repeat_of, m.source, m.name, m.received_at,
       m.state, m.error, f.name AS first
     FROM inbox_messages AS m INDEXED BY inbox_messages_entity
     LEFT JOIN inbox_messages AS f ON f.id = m.repeat_of
     WHERE m.entity IN (SELECT value FROM json_each(@keys))
       AND (m.state = 'rejected' OR (m.repeat_of IS NOT NULL AND m.state = 'done'))
     ORDER BY m.id`,
    {
      source: 'text',
      name: 'text',
      received_at: 'text',
      state: 'text',
      error: 'text?',
      first: 'text?',
      id: 'number',
      kind: 'text',
      entity: 'text?',
      stamp: 'text?',
      repeat_of: 'number?',
    },
  ).all({ keys: JSON.stringify(subject.entityKeys) });
  return rows.map((row) => {
    const from = row.source === 'file' ? 'file' : 'request';
    const message = `ERP ${row.kind} ${from} ${mask.name(row.name)}`;
    const first = row.first === null ? 'an earlier message' : mask.name(row.first);
    const what =
      row.state === 'rejected'
        ? `${message} refused: ${refusal(store, row, mask)}`
        : `${message} received: the same as ${first}, nothing queued`;
    return { at: row.received_at, kind: 'message' as const, what };
  });
}
