import { inboxJobKey, replayedName, replayJobKeyStart, type InboxMessageKey } from './jobKeys.js';
import { columns, JOB_COLUMNS, toStoredJob, type JobRow, type StoredJob } from './queueRows.js';
import { type ColumnsOf, entryOf, query, type RowOf, selectList } from './statements.js';
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
  /** `done`: queued, or a repeat; `rejected`: refused as overtaken (`error` says why). */
  state: string;
  error: string | undefined;
  /** The business key of what it is about; undefined for a message kept before identity. */
  entity: string | undefined;
  /** What it says (erp/messages/identity.ts); undefined where it was not kept. */
  content: string | undefined;
  /** The ERP's stamp. */
  stamp: string | undefined;
  /** The message this one repeats (the same content, kept first under another name). */
  repeatOf: number | undefined;
}

const KEPT_COLUMNS: ColumnsOf<RowOf<KeptMessage>> = {
  id: 'number',
  kind: 'text',
  source: 'text',
  name: 'text',
  sha256: 'text',
  body: 'text',
  receivedAt: 'text',
  state: 'text',
  error: 'text?',
  entity: 'text?',
  content: 'text?',
  stamp: 'text?',
  repeatOf: 'number?',
};

const KEPT = selectList(KEPT_COLUMNS);

const kept = (row: RowOf<KeptMessage>) => entryOf<KeptMessage>(row);

/** A kept message by its id. */
export function keptMessage(store: Store, id: number): KeptMessage | undefined {
  const row = query<{ id: number }, RowOf<KeptMessage>>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages WHERE id = @id`,
    KEPT_COLUMNS,
  ).get({ id });
  return row === undefined ? undefined : kept(row);
}

/**
 * The message kept for `key`: under its name with its content, else (a file read before under
 * another name, or kept before messages were known by what they say) the first one handled
 * with its content, which is `key.sha256` for every message read now.
 */
export function firstMessageOf(store: Store, key: InboxMessageKey): KeptMessage | undefined {
  const exact = query<InboxMessageKey, RowOf<KeptMessage>>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages
     WHERE source = @source AND kind = @kind AND name = @name AND sha256 = @sha256`,
    KEPT_COLUMNS,
  ).get(key);
  if (exact !== undefined) return kept(exact);
  const alike = query<{ kind: string; content: string }, RowOf<KeptMessage>>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages INDEXED BY inbox_messages_content
     WHERE kind = @kind AND content = @content AND state = 'done' ORDER BY id`,
    KEPT_COLUMNS,
  ).all({ kind: key.kind, content: key.sha256 });
  const first = alike.find((row) => replayedName(row.name) === undefined && row.repeatOf === null);
  return first === undefined ? undefined : kept(first);
}

/**
 * The newest message handled for `entity` after the message `id` that says something else: the
 * one that overtook it. Repeats and replays of the same content do not.
 */
export function newerMessageAbout(
  store: Store,
  kind: string,
  entity: string,
  id: number,
  content: string | undefined,
): KeptMessage | undefined {
  const row = query<Record<string, string | number | null>, RowOf<KeptMessage>>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages INDEXED BY inbox_messages_entity
     WHERE kind = @kind AND entity = @entity AND id > @id AND state = 'done'
       AND content IS NOT @content
     ORDER BY id DESC LIMIT 1`,
    KEPT_COLUMNS,
  ).get({ kind, entity, id, content: content ?? null });
  return row === undefined ? undefined : kept(row);
}

/** The messages that came as requests (`POST /erp/<kind>`) under the ERP's key `name`. */
export function requestsNamed(store: Store, name: string): KeptMessage[] {
  return query<{ name: string }, RowOf<KeptMessage>>(
    store.db,
    `SELECT ${KEPT} FROM inbox_messages WHERE source = 'http' AND name = @name ORDER BY id`,
    KEPT_COLUMNS,
  )
    .all({ name })
    .map(kept);
}

/** The job a message queued; undefined when it never queued one or retention removed it. */
export function jobOfMessage(store: Store, message: InboxMessageKey): StoredJob | undefined {
  const row = query<{ key: string }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue WHERE idempotency_key = @key`,
    JOB_COLUMNS,
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
  return query<Record<string, string>, { id: number }>(
    store.db,
    `SELECT id FROM queue INDEXED BY queue_entity
     WHERE entity_key = @entityKey AND kind = @kind AND created_at > @since
       AND state <> 'superseded' AND idempotency_key IS NOT @own
       AND NOT (idempotency_key > @replays AND idempotency_key < @replaysEnd)
     ORDER BY id DESC LIMIT 1`,
    { id: 'number' },
  ).get({ entityKey, kind, since, own, replays, replaysEnd: `${replays}\uffff` })?.id;
}
