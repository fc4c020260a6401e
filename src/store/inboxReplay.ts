import { inboxJobKey, replayedName, replayJobKeyStart, type InboxMessageKey } from './jobKeys.js';
import { columns, toStoredJob, type JobRow, type StoredJob } from './queueRows.js';
import { statement } from './statements.js';
import type { Store } from './store.js';

/**
 * What `inbox replay` reads about an ERP message: the message as kept, the job it queued, and
 * whether a newer message of a kind that replaces its entity's state followed it.
 */

export interface KeptMessage extends InboxMessageKey {
  id: number;
  /** The message as the inbox handed it on (JSON); '' once retention or `forget` removed it. */
  body: string;
  receivedAt: string;
}

interface KeptRow extends InboxMessageKey {
  id: number;
  body: string;
  received_at: string;
}

const KEPT = 'id, kind, source, name, sha256, body, received_at';

const kept = (row: KeptRow): KeptMessage => ({
  id: row.id,
  kind: row.kind,
  source: row.source,
  name: row.name,
  sha256: row.sha256,
  body: row.body,
  receivedAt: row.received_at,
});

/**
 * The message first kept with this content: under `key`'s name, else (a file archived under
 * another name beside an earlier one, `x.2.json`) the newest of its kind and source with the
 * same content that is no replay itself.
 */
export function firstMessageOf(store: Store, key: InboxMessageKey): KeptMessage | undefined {
  const exact = statement<InboxMessageKey, KeptRow>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages
     WHERE source = @source AND kind = @kind AND name = @name AND sha256 = @sha256`,
  ).get(key);
  if (exact !== undefined) return kept(exact);
  const alike = statement<InboxMessageKey, KeptRow>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages
     WHERE source = @source AND kind = @kind AND sha256 = @sha256 ORDER BY id DESC`,
  ).all(key);
  const first = alike.find((row) => replayedName(row.name) === undefined);
  return first === undefined ? undefined : kept(first);
}

/** The messages that came as requests (`POST /erp/<kind>`) under the ERP's key `name`. */
export function requestsNamed(store: Store, name: string): KeptMessage[] {
  return statement<{ name: string }, KeptRow>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages WHERE source = 'http' AND name = @name ORDER BY id`,
  )
    .all({ name })
    .map(kept);
}

/** The job a message queued; undefined when it never queued one or retention removed it. */
export function jobOfMessage(store: Store, message: InboxMessageKey): StoredJob | undefined {
  const row = statement<{ key: string }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue WHERE idempotency_key = @key`,
  ).get({ key: inboxJobKey(message) });
  return row === undefined ? undefined : toStoredJob(row);
}

/**
 * The newest job of `kind` about `entityKey` queued after `since` that was not superseded,
 * leaving out `message`'s own job and the replays of it: one that came from a newer message.
 */
export function newerJobAbout(
  store: Store,
  kind: string,
  entityKey: string,
  since: string,
  message: InboxMessageKey,
): number | undefined {
  const own = inboxJobKey(message);
  const replays = replayJobKeyStart(message);
  return statement<Record<string, string>, { id: number }>(
    store.db,
    `SELECT id FROM queue INDEXED BY queue_entity
     WHERE entity_key = @entityKey AND kind = @kind AND created_at > @since
       AND state <> 'superseded' AND idempotency_key IS NOT @own
       AND NOT (idempotency_key > @replays AND idempotency_key < @replaysEnd)
     ORDER BY id DESC LIMIT 1`,
  ).get({ entityKey, kind, since, own, replays, replaysEnd: `${replays}\uffff` })?.id;
}
