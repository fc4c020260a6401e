import { plainStatement, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

export interface InboxMessageRow {
  kind: string;
  source: 'file' | 'http';
  name: string;
  /** What the message says (erp/inbox/identity.ts): its identity with kind and entity. */
  sha256: string;
  body: string;
  /** The business key of what it is about (`singleOrder:<id>`, `patient:<customerId>` …). */
  entity: string;
  /** The ERP's own stamp, an instant in UTC. */
  stamp?: string;
}

/**
 * What became of a message: kept now (`new`), the same message again (`repeat`), refused for a
 * newer one of its entity handled before (`overtaken`, `reason` says by which), or a request
 * key used before for another content (`conflict`). `id` is the row that keeps it.
 */
export type InboxInsert =
  | { id: number; outcome: 'new' | 'repeat' | 'conflict' }
  | { id: number; outcome: 'overtaken'; reason: string };

interface KeptRow {
  id: number;
  sha256: string;
  state: string;
  error: string | null;
}

/** The row a file's message or a request's key was kept in before, under this very name. */
function keptUnderName(store: Store, message: InboxMessageRow): KeptRow | undefined {
  const same = message.source === 'http' ? '' : 'AND sha256 = @sha256';
  return statement<Record<string, string>, KeptRow>(
    store.db,
    `SELECT id, sha256, state, error FROM inbox_messages
     WHERE source = @source AND kind = @kind AND name = @name ${same} ORDER BY id LIMIT 1`,
  ).get({ source: message.source, kind: message.kind, name: message.name, sha256: message.sha256 });
}

interface EntityRow {
  id: number;
  name: string;
  content: string | null;
  stamp: string | null;
  received_at: string;
}

function lastOfEntity(store: Store, message: InboxMessageRow): EntityRow | undefined {
  return statement<Record<string, string>, EntityRow>(
    store.db,
    `SELECT id, name, content, stamp, received_at FROM inbox_messages INDEXED BY inbox_messages_entity
     WHERE entity = @entity AND kind = @kind AND state = 'done' ORDER BY id DESC LIMIT 1`,
  ).get({ kind: message.kind, entity: message.entity });
}

/** The first message handled with this content (kept before identity only by its body). */
function firstWithContent(store: Store, message: InboxMessageRow): number | undefined {
  return statement<Record<string, string>, { id: number }>(
    store.db,
    `SELECT id FROM inbox_messages INDEXED BY inbox_messages_content
     WHERE kind = @kind AND content = @content AND state = 'done' ORDER BY id LIMIT 1`,
  ).get({ kind: message.kind, content: message.sha256 })?.id;
}

type Kept = { state: 'received' | 'done' | 'rejected'; error?: string; repeatOf?: number };

function keep(store: Store, message: InboxMessageRow, kept: Kept): number {
  const row = statement<Record<string, string | number | null>, { id: number }>(
    store.db,
    `INSERT INTO inbox_messages (kind, source, name, sha256, body, received_at, state,
       processed_at, error, entity, content, stamp, repeat_of)
     VALUES (@kind, @source, @name, @sha256, @body, @now, @state,
       CASE WHEN @state = 'received' THEN NULL ELSE @now END, @error, @entity, @sha256, @stamp,
       @repeatOf)
     RETURNING id`,
  ).get({
    ...message,
    // A repeat's content is its first's: that one keeps the body.
    body: kept.repeatOf === undefined ? message.body : '',
    stamp: message.stamp ?? null,
    now: storedNow(store),
    state: kept.state,
    error: kept.error ?? null,
    repeatOf: kept.repeatOf ?? null,
  });
  if (row === undefined) throw new Error('inbox: the message was not kept');
  return row.id;
}

const overtakenBy = (last: EntityRow, why: string): string =>
  `overtaken: ${why} ${last.name}, handled ${last.received_at}, is newer; not written`;

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
  const named = keptUnderName(store, message);
  if (named !== undefined) {
    if (named.sha256 !== message.sha256) return { id: named.id, outcome: 'conflict' };
    if (named.state === 'rejected' && named.error !== null) {
      return { id: named.id, outcome: 'overtaken', reason: named.error };
    }
    return { id: named.id, outcome: 'repeat' };
  }
  if (replay) return { id: keep(store, message, { state: 'received' }), outcome: 'new' };
  const last = lastOfEntity(store, message);
  const first = firstWithContent(store, message);
  if (first !== undefined) {
    if (last === undefined || last.content === message.sha256) {
      return { id: keep(store, message, { state: 'done', repeatOf: first }), outcome: 'repeat' };
    }
    const reason = overtakenBy(last, 'the same was said before, and');
    const id = keep(store, message, { state: 'rejected', error: reason, repeatOf: first });
    return { id, outcome: 'overtaken', reason };
  }
  if (message.stamp !== undefined && last?.stamp != null && message.stamp < last.stamp) {
    const reason = overtakenBy(
      last,
      `its erpTimestamp ${message.stamp} is older than ${last.stamp} of`,
    );
    return {
      id: keep(store, message, { state: 'rejected', error: reason }),
      outcome: 'overtaken',
      reason,
    };
  }
  return { id: keep(store, message, { state: 'received' }), outcome: 'new' };
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
  const rows = plainStatement<{ state: string; n: number }>(
    store.db,
    'SELECT state, count(*) AS n FROM inbox_messages GROUP BY state',
  ).all();
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}
