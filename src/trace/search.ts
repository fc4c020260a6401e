import { fileLabel, fileOfMessage, LABEL } from '../log/index.js';
import {
  inboxJobKey,
  MIRROR_KEYS,
  MIRROR_KEYS_COLUMNS,
  mirroredBy,
  replayedName,
  quarantinedResources,
  replayName,
  subjectOfEntity,
  subjectOfJob,
  subjectOfRow,
  type InboxMessageKey,
  type MirrorKeyName,
  type RecordSubject,
  type Store,
  type MirrorKeys,
} from '../store/index.js';
import { query } from '../store/statements.js';
import { distinctMatches, matched, type KeyKind, type KeyMatch } from './keys.js';

/**
 * The records a key names (`trace <key>`, the console's search): by the mirror's keys and
 * indexes, the queue's entity keys, a job id, an ERP message's file name (or its label, as logs
 * and alerts show it), an outbox file name.
 */

/** The mirror's keys: the platform's `_id`, then the ERP's. */
export const MIRROR_KEY_NAMES: readonly MirrorKeyName[] = [
  '_id',
  'salesId',
  'customerId',
  'customerNumber',
  'serialNumber',
];

/** The mirrored records whose `_id` or one of the ERP's keys is `key`. */
function mirroredByAnyKey(store: Store, key: string): KeyMatch[] {
  return MIRROR_KEY_NAMES.flatMap((name) => mirroredBy(store, name, key).map(matched(name, key)));
}

/**
 * The orders an ERP gave `number` as their erpOrderNumber (an orderStatus message; a reduced
 * record keeps it): only the order's body holds it, indexed for the orders that have one.
 */
function mirroredByErpOrderNumber(store: Store, number: string): KeyMatch[] {
  return query<{ number: string }, MirrorKeys>(
    store.db,
    `SELECT ${MIRROR_KEYS} FROM mirror INDEXED BY mirror_erp_order_number
     WHERE resource IN ('singleOrder', 'directOrder') AND json ->> '$.erpOrderNumber' = @number
     ORDER BY resource, _id`,
    MIRROR_KEYS_COLUMNS,
  )
    .all({ number })
    .map(subjectOfRow)
    .map(matched('erpOrderNumber', number));
}

/** The entity keys (subjectOfRow) that name a record by the ERP's own key, and that key's kind. */
const ERP_KEYED: readonly [string, KeyKind][] = [
  ['patient:', 'customerId'],
  ['article:', 'customerNumber'],
  ['device:', 'serialNumber'],
  ['erpOrder:', 'salesId'],
  ['singleOrder:salesId:', 'salesId'],
  ['directOrder:salesId:', 'salesId'],
];

/**
 * A record the ERP named by its own key and the mirror does not hold: a patient the platform
 * refused to create, an order status by a salesId no pull has brought. Only its jobs know it.
 */
function queuedByErpKey(store: Store, key: string): KeyMatch[] {
  const jobOf = query<{ key: string }, { id: number }>(
    store.db,
    'SELECT id FROM queue INDEXED BY queue_entity WHERE entity_key = @key LIMIT 1',
    { id: 'number' },
  );
  return ERP_KEYED.flatMap(([prefix, kind]) => {
    const job = jobOf.get({ key: `${prefix}${key}` });
    const subject = job === undefined ? undefined : subjectOfJob(store, job.id);
    return subject === undefined ? [] : [matched(kind, key)(subject)];
  });
}

/**
 * The names of the ERP messages whose file a label (`#5d41402a.json`, as logs and alerts name
 * it) stands for. No column holds the labels: the names are read and hashed, only after every
 * other look-up found nothing.
 */
function messagesLabelled(store: Store, key: string): string[] {
  const hash = LABEL.exec(key)?.[1]?.toLowerCase();
  if (hash === undefined) return [];
  const names = query<Record<string, never>, { name: string }>(
    store.db,
    'SELECT DISTINCT name FROM inbox_messages',
    { name: 'text' },
  ).all({});
  return names
    .map((row) => row.name)
    .filter((name) => fileLabel(fileOfMessage(name)).startsWith(`#${hash}`));
}

interface NamedMessage extends InboxMessageKey {
  entity: string | null;
}

/** `Rueckmeldung.csv#3` → the file and the row; the rows of a message: `#2,5` → [2, 5]. */
const ROW_NAME = /^(.*)#(\d+)$/;
const rowsOf = (name: string, file: string): string[] => name.slice(file.length + 1).split(',');

/**
 * The ERP messages `name` names: a request key, a JSON file, the messages of a file of rows or
 * of an openTRANS file (`<file>#…`), one row's message (`<file>#<row>`, also inside a message
 * of several rows), each with their replays.
 */
function messagesNamed(store: Store, name: string): NamedMessage[] {
  const row = ROW_NAME.exec(name);
  const file = row?.[1] ?? name;
  const replays = replayName(name, '');
  const inFile = `${file}#`;
  const ranges = {
    name,
    replays,
    replaysEnd: `${replays}\uffff`,
    inFile,
    inFileEnd: `${inFile}\uffff`,
  };
  const messages = query<Record<string, string>, NamedMessage>(
    store.db,
    `SELECT kind, source, name, sha256, entity FROM inbox_messages INDEXED BY inbox_messages_name
     WHERE name = @name OR (name > @replays AND name < @replaysEnd)
       OR (name > @inFile AND name < @inFileEnd)
     ORDER BY id`,
    { entity: 'text?', kind: 'text', source: 'text', name: 'text', sha256: 'text' },
  ).all(ranges);
  const wanted = row?.[2];
  if (wanted === undefined) return messages;
  // One row: the messages whose rows hold it (and their replays).
  return messages.filter((message) => {
    const own = replayedName(message.name) ?? message.name;
    return own === name || rowsOf(own, file).includes(wanted);
  });
}

/**
 * The records of the ERP messages `name` names (a file name, `<file>#<row>` or request key),
 * as an inbox file or a request key (`kind`: a label's, when a label named them).
 */
export function subjectsOfMessage(store: Store, name: string, kind?: KeyKind): KeyMatch[] {
  const jobOf = query<{ key: string }, { id: number }>(
    store.db,
    'SELECT id FROM queue WHERE idempotency_key = @key',
    { id: 'number' },
  );
  const matches: KeyMatch[] = [];
  for (const message of messagesNamed(store, name)) {
    const job = jobOf.get({ key: inboxJobKey(message) });
    // A repeat or an overtaken message queued nothing: its entity names the record.
    const subject =
      job !== undefined
        ? subjectOfJob(store, job.id)
        : message.entity === null
          ? undefined
          : subjectOfEntity(store, message.entity);
    const by = kind ?? (message.source === 'http' ? 'requestKey' : 'inboxFile');
    if (subject !== undefined) matches.push(matched(by, name)(subject));
  }
  // A message and its replays are about one record: it is named once.
  return distinctMatches(matches);
}

/** `<resource>_<ten digits>.<csv|ndjson>`: an outbox batch file (erp/outbound/file/names.ts). */
const BATCH_FILE = /^[A-Za-z0-9.~-]+_(\d{10})\.(?:csv|ndjson)$/;

/**
 * The records handed over in an outbox batch file: its delivery jobs keep the batch's number
 * (until retention.jobs lets them go).
 */
function subjectsOfBatch(store: Store, file: string): KeyMatch[] {
  const batch = BATCH_FILE.exec(file.split('/').pop() ?? file)?.[1];
  if (batch === undefined) return [];
  return query<{ batch: number }, { entity_key: string }>(
    store.db,
    `SELECT DISTINCT entity_key FROM queue INDEXED BY queue_batches
     WHERE batch_id = @batch ORDER BY entity_key`,
    { entity_key: 'text' },
  )
    .all({ batch: Number(batch) })
    .map((row) => matched('outboxFile', file)(subjectOfEntity(store, row.entity_key)));
}

/** The records of the messages a file's label names (messagesLabelled), each once. */
function subjectsOfLabel(store: Store, key: string): KeyMatch[] {
  return distinctMatches(
    messagesLabelled(store, key).flatMap((name) => subjectsOfMessage(store, name, 'fileLabel')),
  );
}

/** An outbox file of one record: its `_id` comes first in its name (erp/outbound/file/names.ts). */
function subjectsOfOutboxFile(store: Store, key: string): KeyMatch[] {
  const [fileId] = (key.split('/').pop() ?? key).split('_');
  if (fileId === undefined || fileId === key) return [];
  return mirroredBy(store, '_id', fileId).map(matched('outboxFile', key));
}

/** A record only the quarantine knows (none of its versions could be kept), by its `_id`. */
function quarantinedBy(store: Store, id: string): KeyMatch[] {
  return quarantinedResources(store, id).map((resource) =>
    matched('_id', id)({ resource, id, entityKeys: [`${resource}:${id}`] }),
  );
}

/** A job id: the record its job is about. */
function subjectsOfJobId(store: Store, key: string): KeyMatch[] {
  if (!/^\d+$/.test(key)) return [];
  const subject = subjectOfJob(store, Number(key));
  return subject === undefined ? [] : [matched('jobId', key)(subject)];
}

/**
 * Where a key is looked for, in this order, the first that finds it answering: the mirror's
 * keys first, as an ERP's number may look like a job id.
 */
const EXACT_LOOK_UPS: readonly ((store: Store, key: string) => KeyMatch[])[] = [
  mirroredByAnyKey,
  mirroredByErpOrderNumber,
  queuedByErpKey,
  quarantinedBy,
  subjectsOfJobId,
  subjectsOfMessage,
  subjectsOfLabel,
  subjectsOfBatch,
  subjectsOfOutboxFile,
];

/**
 * The records `key` names exactly, with the kind of key that named each: a platform `_id`, a
 * salesId (an ERP order's number), an order's erpOrderNumber, a patient's customerId, an
 * article's customerNumber, a device's serialNumber (also of a record only the queue knows),
 * an outbox file name (`<_id>_<version>.<ext>`, or a batch file `<resource>_<batch>.<csv|ndjson>`),
 * an inbox file name, one of its messages (`<file>#<row>`) or a request key (or its label, as logs
 * show it), or a job id.
 */
export function exactMatches(store: Store, key: string): KeyMatch[] {
  for (const lookUp of EXACT_LOOK_UPS) {
    const found = lookUp(store, key);
    if (found.length > 0) return distinctMatches(found);
  }
  return [];
}

/** The records `key` names exactly (exactMatches), for `trace <key>`. */
export function subjectsOfKey(store: Store, key: string): RecordSubject[] {
  return exactMatches(store, key).map((match) => match.subject);
}
