import { plainStatement, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

export interface InboxMessageRow {
  kind: string;
  source: 'file' | 'http';
  name: string;
  sha256: string;
  body: string;
}

/** What became of a message: kept now, kept before, or refused (see `insertInboxMessage`). */
export type InboxInsert = { id: number; outcome: 'new' | 'repeat' | 'conflict' };

/**
 * Keeps a message from the ERP. The same message again (same source, kind, name and content:
 * a file dropped twice) is not kept twice: the outcome is `repeat` and `id` is the first one's.
 * Over HTTP the name is the ERP's Idempotency-Key, which names one message: the same key with
 * another content is a `conflict` and is not kept. A file name may come again with new content.
 */
export function insertInboxMessage(store: Store, message: InboxMessageRow): InboxInsert {
  const where = { source: message.source, kind: message.kind, name: message.name };
  if (message.source === 'http') {
    const first = statement<Record<string, string>, { id: number; sha256: string }>(
      store.db,
      `SELECT id, sha256 FROM inbox_messages WHERE source = @source AND kind = @kind AND name = @name
       ORDER BY id LIMIT 1`,
    ).get(where);
    if (first !== undefined && first.sha256 !== message.sha256) {
      return { id: first.id, outcome: 'conflict' };
    }
  }
  const inserted = statement<Record<string, string>, { id: number }>(
    store.db,
    `INSERT INTO inbox_messages (kind, source, name, sha256, body, received_at)
     VALUES (@kind, @source, @name, @sha256, @body, @now)
     ON CONFLICT (source, kind, name, sha256) DO NOTHING
     RETURNING id`,
  ).get({ ...message, now: storedNow(store) });
  if (inserted) return { id: inserted.id, outcome: 'new' };
  const existing = statement<Record<string, string>, { id: number }>(
    store.db,
    `SELECT id FROM inbox_messages WHERE source = @source AND kind = @kind AND name = @name AND sha256 = @sha256`,
  ).get({ ...where, sha256: message.sha256 });
  return { id: existing?.id ?? 0, outcome: 'repeat' };
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
