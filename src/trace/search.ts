import { fileLabel, fileOfMessage, LABEL } from '../log/index.js';
import {
  inboxJobKey,
  MIRROR_KEYS,
  mirroredBy,
  replayedName,
  replayName,
  subjectOfEntity,
  subjectOfJob,
  subjectOfRow,
  type InboxMessageKey,
  type MirrorKeyName,
  type RecordSubject,
  type Store,
} from '../store/index.js';
import { statement } from '../store/statements.js';

/**
 * The records a key names (`trace <key>`, the console's search): by the mirror's keys and
 * indexes, the queue's entity keys, a job id, an ERP message's file name (or its label, as logs
 * and alerts show it), an outbox file name.
 */

/** The mirrored records whose `_id` or one of the ERP's keys is `key`. */
function mirroredByAnyKey(store: Store, key: string): RecordSubject[] {
  const names: MirrorKeyName[] = ['_id', 'salesId', 'customerId', 'customerNumber', 'serialNumber'];
  return names.flatMap((name) => mirroredBy(store, name, key));
}

/**
 * The orders an ERP gave `number` as their erpOrderNumber (an orderStatus message; a reduced
 * record keeps it). No column or index holds it, so the orders' bodies are read: only after
 * the indexed keys matched nothing.
 */
function mirroredByErpOrderNumber(store: Store, number: string): RecordSubject[] {
  return statement<{ number: string }, Parameters<typeof subjectOfRow>[0]>(
    store.db,
    `SELECT ${MIRROR_KEYS} FROM mirror
     WHERE resource IN ('singleOrder', 'directOrder') AND json ->> '$.erpOrderNumber' = @number
     ORDER BY resource, _id`,
  )
    .all({ number })
    .map(subjectOfRow);
}

/** The entity keys (subjectOf) that name a record by the ERP's own key. */
const ERP_KEYED = ['patient:', 'article:', 'device:', 'erpOrder:'].concat(
  ['singleOrder', 'directOrder'].map((resource) => `${resource}:salesId:`),
);

/**
 * A record the ERP named by its own key and the mirror does not hold: a patient the platform
 * refused to create, an order status by a salesId no pull has brought. Only its jobs know it.
 */
function queuedByErpKey(store: Store, key: string): RecordSubject[] {
  const jobOf = statement<{ key: string }, { id: number }>(
    store.db,
    'SELECT id FROM queue INDEXED BY queue_entity WHERE entity_key = @key LIMIT 1',
  );
  return ERP_KEYED.flatMap((prefix) => {
    const job = jobOf.get({ key: `${prefix}${key}` });
    const subject = job === undefined ? undefined : subjectOfJob(store, job.id);
    return subject === undefined ? [] : [subject];
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
  const names = statement<Record<string, never>, { name: string }>(
    store.db,
    'SELECT DISTINCT name FROM inbox_messages',
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
  const messages = statement<Record<string, string>, NamedMessage>(
    store.db,
    `SELECT kind, source, name, sha256, entity FROM inbox_messages
     WHERE name = @name OR name LIKE @suffix OR (name > @replays AND name < @replaysEnd)
       OR (name > @inFile AND name < @inFileEnd)
     ORDER BY id`,
  ).all({
    name,
    suffix: `%/${name}`,
    replays,
    replaysEnd: `${replays}\uffff`,
    inFile,
    inFileEnd: `${inFile}\uffff`,
  });
  const wanted = row?.[2];
  if (wanted === undefined) return messages;
  // One row: the messages whose rows hold it (and their replays).
  return messages.filter((message) => {
    const own = replayedName(message.name) ?? message.name;
    return own === name || rowsOf(own, file).includes(wanted);
  });
}

/** The subject of an ERP message, found by its file name, `<file>#<row>` or request key. */
function subjectsOfMessage(store: Store, name: string): RecordSubject[] {
  const jobOf = statement<{ key: string }, { id: number }>(
    store.db,
    'SELECT id FROM queue WHERE idempotency_key = @key',
  );
  // A message and its replays are about one record: it is named once.
  const subjects = new Map<string, RecordSubject>();
  for (const message of messagesNamed(store, name)) {
    const job = jobOf.get({ key: inboxJobKey(message) });
    // A repeat or an overtaken message queued nothing: its entity names the record.
    const subject =
      job !== undefined
        ? subjectOfJob(store, job.id)
        : message.entity === null
          ? undefined
          : subjectOfEntity(store, message.entity);
    if (subject !== undefined) subjects.set(`${subject.resource}:${subject.id}`, subject);
  }
  return [...subjects.values()];
}

/** `<resource>_<ten digits>.<csv|ndjson>`: an outbox batch file (erp/file/names.ts). */
const BATCH_FILE = /^[A-Za-z0-9.~-]+_(\d{10})\.(?:csv|ndjson)$/;

/**
 * The records handed over in an outbox batch file: its delivery jobs keep the batch's number
 * (until retention.jobs lets them go).
 */
function subjectsOfBatch(store: Store, file: string): RecordSubject[] {
  const batch = BATCH_FILE.exec(file.split('/').pop() ?? file)?.[1];
  if (batch === undefined) return [];
  return statement<{ batch: number }, { entity_key: string }>(
    store.db,
    `SELECT DISTINCT entity_key FROM queue INDEXED BY queue_batches
     WHERE batch_id = @batch ORDER BY entity_key`,
  )
    .all({ batch: Number(batch) })
    .map((row) => subjectOfEntity(store, row.entity_key));
}

/** The subjects of the messages a file's label names (messagesLabelled), each once. */
function subjectsOfLabel(store: Store, key: string): RecordSubject[] {
  const subjects = new Map<string, RecordSubject>();
  for (const name of messagesLabelled(store, key)) {
    for (const subject of subjectsOfMessage(store, name)) {
      subjects.set(`${subject.resource}:${subject.id}`, subject);
    }
  }
  return [...subjects.values()];
}

/**
 * The records `key` names: a platform `_id`, a salesId (an ERP order's number), an order's
 * erpOrderNumber, a patient's customerId, an article's customerNumber, a device's serialNumber
 * (also of a record only the queue knows), an outbox file name (`<_id>_<version>.<ext>`, or a
 * batch file `<resource>_<batch>.<csv|ndjson>`), an inbox file name, one of its messages
 * (`<file>#<row>`) or a request key (or its label, as logs show it), or a job id. The mirror's
 * keys come first, as an ERP's number may look like a job id.
 */
export function subjectsOfKey(store: Store, key: string): RecordSubject[] {
  for (const lookUp of [mirroredByAnyKey, mirroredByErpOrderNumber, queuedByErpKey]) {
    const found = lookUp(store, key);
    if (found.length > 0) return found;
  }
  if (/^\d+$/.test(key)) {
    const ofJob = subjectOfJob(store, Number(key));
    if (ofJob !== undefined) return [ofJob];
  }
  const ofMessage = subjectsOfMessage(store, key);
  if (ofMessage.length > 0) return ofMessage;
  const ofLabel = subjectsOfLabel(store, key);
  if (ofLabel.length > 0) return ofLabel;
  const ofBatch = subjectsOfBatch(store, key);
  if (ofBatch.length > 0) return ofBatch;
  // An outbox file: the record's `_id` comes first in its name.
  const [fileId] = (key.split('/').pop() ?? key).split('_');
  return fileId !== undefined && fileId !== key ? mirroredBy(store, '_id', fileId) : [];
}
