import { overtakenText, overtakingOf, type Overtaking, type OvertakenRow } from './overtaken.js';
import { plainQuery, query, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

export interface InboxMessageRow {
  kind: string;
  source: 'file' | 'http';
  name: string;
  /** What the message says (erp/messages/identity.ts): its identity with kind and entity. */
  sha256: string;
  body: string;
  /** The business key of what it is about (`singleOrder:<id>`, `patient:<customerId>` …). */
  entity: string;
  /** The ERP's own stamp, an instant in UTC. */
  stamp?: string;
}

/**
 * What became of a message: kept now (`new`), the same message again (`repeat`), refused for a
 * newer one of its entity handled before (`overtaken`, with what overtook it), or a request
 * key used before for another content (`conflict`). `id` is the row that keeps it.
 */
export type InboxInsert =
  | { id: number; outcome: 'new' | 'repeat' | 'conflict' }
  | { id: number; outcome: 'overtaken'; overtaking: Overtaking };

interface KeptRow extends OvertakenRow {
  sha256: string;
  state: string;
}

/** The row a file's message or a request's key was kept in before, under this very name. */
function keptUnderName(store: Store, message: InboxMessageRow): KeptRow | undefined {
  const same = message.source === 'http' ? '' : 'AND sha256 = @sha256';
  return query<Record<string, string>, KeptRow>(
    store.db,
    `SELECT id, kind, sha256, state, entity, stamp, repeat_of, error FROM inbox_messages
     WHERE source = @source AND kind = @kind AND name = @name ${same} ORDER BY id LIMIT 1`,
    {
      sha256: 'text',
      state: 'text',
      id: 'number',
      kind: 'text',
      entity: 'text?',
      stamp: 'text?',
      repeat_of: 'number?',
      error: 'text?',
    },
  ).get({ source: message.source, kind: message.kind, name: message.name, sha256: message.sha256 });
}

/** What the database has heard of a message's entity and content, in one look. */
interface Heard {
  /** The first message handled with this content (kept before identity only by its body). */
  first: number | null;
  /** The last message handled for the entity: what a newer one is measured against. */
  id: number | null;
  name: string | null;
  source: string | null;
  content: string | null;
  stamp: string | null;
  received_at: string | null;
}

function heardOf(store: Store, message: InboxMessageRow): Heard {
  const heard = query<Record<string, string>, Heard>(
    store.db,
    `SELECT (SELECT id FROM inbox_messages INDEXED BY inbox_messages_content
              WHERE kind = @kind AND content = @content AND state = 'done'
              ORDER BY id LIMIT 1) AS first,
            last.id, last.name, last.source, last.content, last.stamp, last.received_at
     FROM (SELECT 1) LEFT JOIN (
       SELECT id, name, source, content, stamp, received_at FROM inbox_messages
         INDEXED BY inbox_messages_entity
       WHERE entity = @entity AND kind = @kind AND state = 'done' ORDER BY id DESC LIMIT 1
     ) AS last`,
    {
      first: 'number?',
      id: 'number?',
      name: 'text?',
      source: 'text?',
      content: 'text?',
      stamp: 'text?',
      received_at: 'text?',
    },
  ).get({ kind: message.kind, entity: message.entity, content: message.sha256 });
  if (heard === undefined) throw new Error('inbox: the look at what was heard gave no row');
  return heard;
}

type Kept = { state: 'received' | 'done' | 'rejected'; error?: string; repeatOf?: number };

/** Keeps the message as `kept` says; undefined when a row of its name and content is there. */
function keep(store: Store, message: InboxMessageRow, kept: Kept): number | undefined {
  return query<Record<string, string | number | null>, { id: number }>(
    store.db,
    `INSERT INTO inbox_messages (kind, source, name, sha256, body, received_at, state,
       processed_at, error, entity, content, stamp, repeat_of)
     VALUES (@kind, @source, @name, @sha256, @body, @now, @state,
       CASE WHEN @state = 'received' THEN NULL ELSE @now END, @error, @entity, @sha256, @stamp,
       @repeatOf)
     ON CONFLICT (source, kind, name, sha256) DO NOTHING
     RETURNING id`,
    { id: 'number' },
  ).get({
    ...message,
    // A repeat's content is its first's: that one keeps the body.
    body: kept.repeatOf === undefined ? message.body : '',
    stamp: message.stamp ?? null,
    now: storedNow(store),
    state: kept.state,
    error: kept.error ?? null,
    repeatOf: kept.repeatOf ?? null,
  })?.id;
}

/** What overtook a message: the last one handled for its entity, as the look found it. */
const byLast = (heard: Heard): Overtaking['by'] => ({
  name: heard.name ?? '',
  source: heard.source ?? 'file',
  receivedAt: heard.received_at ?? '',
});

/** What the row kept under the message's very name and content makes of it again. */
function asKept(store: Store, named: KeptRow, message: InboxMessageRow): InboxInsert {
  if (named.sha256 !== message.sha256) return { id: named.id, outcome: 'conflict' };
  const overtaking = named.state === 'rejected' ? overtakingOf(store, named) : undefined;
  if (overtaking !== undefined) return { id: named.id, outcome: 'overtaken', overtaking };
  return { id: named.id, outcome: 'repeat' };
}

/**
 * Keeps a message from the ERP, unless it is one the database has: known by its kind, its
 * entity and what it says, not by its name (design.md, Wave 4).
 *
 * - Under its very name (a file read again after a crash, a request sent again with its
 *   Idempotency-Key) it is what it was then; over HTTP the key names one message, so the same
 *   key with another content is a `conflict`.
 * - The same content again, the last one handled for its entity having it too, is a `repeat`:
 *   kept as a row of its own (trace shows it), nothing to queue.
 * - The same content as an earlier message, when another one for its entity was handled since,
 *   is `overtaken`: the ERP's older word again (a file exported again, a fixed file dropped once
 *   more). Writing it would move the entity back; refused, kept as `rejected` with the reason.
 * - New content with an ERP stamp older than the last handled message's stamp is `overtaken`.
 * - Anything else is `new`, kept as `received`, for the caller to queue and settle.
 *
 * `replay`: an operator's replay (`inbox replay`), which is queued again on purpose; only the
 * name counts (the replay checks first whether it is overtaken).
 */
export function insertInboxMessage(
  store: Store,
  message: InboxMessageRow,
  { replay = false }: { replay?: boolean } = {},
): InboxInsert {
  // A key names one request: looked up first, whatever its content. A file's message under its
  // very name and content is found by the insert's conflict, after the look at what was heard.
  if (message.source === 'http') {
    const named = keptUnderName(store, message);
    if (named !== undefined) return asKept(store, named, message);
  }
  const kept = (how: Kept, then: (id: number) => InboxInsert): InboxInsert => {
    const id = keep(store, message, how);
    if (id !== undefined) return then(id);
    const named = keptUnderName(store, message);
    if (named === undefined) throw new Error('inbox: the message was neither kept nor found');
    return asKept(store, named, message);
  };
  if (replay) return kept({ state: 'received' }, (id) => ({ id, outcome: 'new' }));
  const heard = heardOf(store, message);
  const { first } = heard;
  if (first !== null) {
    if (heard.id === null || heard.content === message.sha256) {
      return kept({ state: 'done', repeatOf: first }, (id) => ({ id, outcome: 'repeat' }));
    }
    const overtaking = { by: byLast(heard) };
    const error = overtakenText(overtaking);
    return kept({ state: 'rejected', error, repeatOf: first }, (id) => ({
      id,
      outcome: 'overtaken',
      overtaking,
    }));
  }
  if (message.stamp !== undefined && heard.stamp !== null && message.stamp < heard.stamp) {
    const overtaking = { by: byLast(heard), stamps: { given: message.stamp, last: heard.stamp } };
    return kept({ state: 'rejected', error: overtakenText(overtaking) }, (id) => ({
      id,
      outcome: 'overtaken',
      overtaking,
    }));
  }
  return kept({ state: 'received' }, (id) => ({ id, outcome: 'new' }));
}

/** Marks a message handed to the queue (`done`) or refused (`rejected`, with the reason). */
export function settleInboxMessage(
  store: Store,
  id: number,
  state: 'done' | 'rejected',
  error?: string,
): void {
  statement<Record<string, string | number | null>>(
    store.db,
    `UPDATE inbox_messages SET state = @state, processed_at = @now, error = @error WHERE id = @id`,
  ).run({ id, state, now: storedNow(store), error: error ?? null });
}

export function countInboxMessages(store: Store): Record<string, number> {
  const rows = plainQuery<{ state: string; n: number }>(
    store.db,
    'SELECT state, count(*) AS n FROM inbox_messages GROUP BY state',
    { state: 'text', n: 'number' },
  ).all();
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}
