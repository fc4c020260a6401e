/**
 * The schema, as an ordered list of steps: step n brings the database to schema version n.
 * Steps are only ever appended; a released step never changes. Times are ISO 8601 UTC text as
 * `Date.toISOString()` writes it, so they sort as text.
 */
export interface Migration {
  readonly name: string;
  readonly sql: string;
}

const initial = `
CREATE TABLE checkpoints (
  resource    TEXT NOT NULL,
  filter      TEXT NOT NULL DEFAULT '',
  watermark   TEXT,
  updated_at  TEXT NOT NULL,
  last_run_at TEXT,
  last_run_ok INTEGER CHECK (last_run_ok IN (0, 1)),
  last_error  TEXT,
  PRIMARY KEY (resource, filter)
) STRICT;

CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  resource    TEXT NOT NULL,
  filter      TEXT NOT NULL DEFAULT '',
  kind        TEXT NOT NULL DEFAULT 'pull' CHECK (kind IN ('pull', 'reconcile')),
  started_at  TEXT NOT NULL,
  finished_at TEXT,
  fetched     INTEGER NOT NULL DEFAULT 0,
  new         INTEGER NOT NULL DEFAULT 0,
  repeats     INTEGER NOT NULL DEFAULT 0,
  quarantined INTEGER NOT NULL DEFAULT 0,
  ok          INTEGER CHECK (ok IN (0, 1)),
  error       TEXT,
  watermark   TEXT
) STRICT;
CREATE INDEX runs_latest ON runs (resource, filter, id);

CREATE TABLE mirror (
  resource        TEXT NOT NULL,
  _id             TEXT NOT NULL,
  version         TEXT NOT NULL,
  customer_id     TEXT,
  customer_number TEXT,
  sales_id        TEXT,
  serial_number   TEXT,
  json            TEXT NOT NULL CHECK (json_valid(json)),
  updated_at      TEXT NOT NULL,
  PRIMARY KEY (resource, _id)
) STRICT;
CREATE INDEX mirror_customer_id ON mirror (resource, customer_id) WHERE customer_id IS NOT NULL;
CREATE INDEX mirror_customer_number ON mirror (resource, customer_number)
  WHERE customer_number IS NOT NULL;
CREATE INDEX mirror_sales_id ON mirror (resource, sales_id) WHERE sales_id IS NOT NULL;
CREATE INDEX mirror_serial_number ON mirror (resource, serial_number)
  WHERE serial_number IS NOT NULL;

-- seq keeps the order records were seen in, stable across VACUUM (a plain rowid is not).
CREATE TABLE ledger (
  seq          INTEGER PRIMARY KEY,
  resource     TEXT NOT NULL,
  _id          TEXT NOT NULL,
  version      TEXT NOT NULL,
  run_id       INTEGER REFERENCES runs (id),
  seen_at      TEXT NOT NULL,
  delivered_at TEXT,
  ack_state    TEXT NOT NULL DEFAULT 'none'
    CHECK (ack_state IN ('none', 'pending', 'queued', 'done')),
  UNIQUE (resource, _id, version)
) STRICT;
CREATE INDEX ledger_undelivered ON ledger (delivered_at) WHERE delivered_at IS NULL;
CREATE INDEX ledger_ack_pending ON ledger (ack_state) WHERE ack_state = 'pending';

CREATE TABLE quarantine (
  id          INTEGER PRIMARY KEY,
  resource    TEXT NOT NULL,
  record_id   TEXT,
  reason      TEXT NOT NULL,
  json        TEXT NOT NULL,
  json_sha256 TEXT NOT NULL,
  run_id      INTEGER REFERENCES runs (id),
  seen_at     TEXT NOT NULL,
  UNIQUE (resource, json_sha256)
) STRICT;
CREATE INDEX quarantine_record ON quarantine (resource, record_id);

CREATE TABLE queue (
  id              INTEGER PRIMARY KEY,
  kind            TEXT NOT NULL,
  entity_key      TEXT NOT NULL,
  idempotency_key TEXT UNIQUE,
  payload         TEXT NOT NULL CHECK (json_valid(payload)),
  state           TEXT NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'running', 'done', 'dead', 'superseded')),
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  last_error      TEXT,
  last_status     INTEGER,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  superseded_by   INTEGER REFERENCES queue (id),
  lease_until     TEXT
) STRICT;
CREATE INDEX queue_claim ON queue (state, next_attempt_at);
CREATE INDEX queue_entity ON queue (entity_key, id);

-- One row per time a job went dead; retry or drop resolves the row, nothing is deleted.
CREATE TABLE dead_letters (
  id           INTEGER PRIMARY KEY,
  job_id       INTEGER NOT NULL REFERENCES queue (id),
  reason       TEXT NOT NULL,
  http_status  INTEGER,
  body_excerpt TEXT,
  dead_at      TEXT NOT NULL,
  resolved_at  TEXT,
  resolution   TEXT CHECK (resolution IN ('retried', 'dropped'))
) STRICT;
CREATE INDEX dead_letters_job ON dead_letters (job_id, id);
CREATE INDEX dead_letters_open ON dead_letters (dead_at) WHERE resolved_at IS NULL;

CREATE TABLE inbox_messages (
  id           INTEGER PRIMARY KEY,
  kind         TEXT NOT NULL,
  source       TEXT NOT NULL CHECK (source IN ('file', 'http')),
  name         TEXT NOT NULL,
  sha256       TEXT NOT NULL,
  body         TEXT NOT NULL,
  received_at  TEXT NOT NULL,
  state        TEXT NOT NULL DEFAULT 'received'
    CHECK (state IN ('received', 'done', 'rejected')),
  processed_at TEXT,
  error        TEXT
) STRICT;
CREATE UNIQUE INDEX inbox_messages_repeat ON inbox_messages (source, kind, name, sha256);
CREATE INDEX inbox_messages_open ON inbox_messages (state, id) WHERE state = 'received';

CREATE TABLE lease (
  name        TEXT PRIMARY KEY,
  holder      TEXT NOT NULL,
  acquired_at TEXT NOT NULL,
  expires_at  TEXT NOT NULL
) STRICT;
`;

/**
 * The ledger keeps each version's record as pulled, so every version (not only the latest the
 * mirror holds) can be handed to the ERP; `waiting_for` says which references a version waits
 * for before it may go out enriched.
 */
const ledgerRecords = `
ALTER TABLE ledger ADD COLUMN json TEXT CHECK (json IS NULL OR json_valid(json));
ALTER TABLE ledger ADD COLUMN waiting_for TEXT;
`;

/**
 * Delivery to the ERP is retried with back-off like a queue job (`delivery_attempts`,
 * `next_delivery_at`); a version the ERP refused for good carries the reason in `rejection`
 * until an operator replays it.
 */
const deliveryRetries = `
ALTER TABLE ledger ADD COLUMN delivery_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ledger ADD COLUMN next_delivery_at TEXT;
ALTER TABLE ledger ADD COLUMN rejection TEXT;
`;

/**
 * Delivery to the ERP is a queue job (`deliver.<resource>`, entity key `<resource>:<_id>`,
 * idempotency key `<resource>:<_id>:<version>`), so it has the queue's back-off, order per
 * entity and dead letters; the ledger keeps only versions and when they were delivered.
 * Every version not yet delivered becomes a job: one the ERP refused (a dead `erp.redeliver`
 * job) stays dead with its dead letters, one an operator had already retried is pending. The
 * old `erp.redeliver` jobs are superseded by the new ones (done where the version was delivered). Jobs handed over together (a batch
 * file) keep their batch number until they end, so that after a crash the same batch goes out
 * again under the same name.
 */
const deliveryJobs = `
CREATE TABLE job_batches (
  id        INTEGER PRIMARY KEY,
  kind      TEXT NOT NULL,
  formed_at TEXT NOT NULL
) STRICT;
ALTER TABLE queue ADD COLUMN batch_id INTEGER REFERENCES job_batches (id);

CREATE TEMP TABLE refused AS
  SELECT json_extract(payload, '$.resource') || ':' || json_extract(payload, '$.id') || ':'
           || json_extract(payload, '$.version') AS key,
         id AS old_id, state AS old_state
  FROM queue WHERE kind = 'erp.redeliver';

INSERT INTO queue (kind, entity_key, idempotency_key, payload, state, attempts, next_attempt_at,
                   last_error, created_at, updated_at)
SELECT 'deliver.' || l.resource, l.resource || ':' || l._id,
       l.resource || ':' || l._id || ':' || l.version,
       json_object('resource', l.resource, 'id', l._id, 'version', l.version),
       CASE WHEN EXISTS (SELECT 1 FROM refused AS r
                         WHERE r.key = l.resource || ':' || l._id || ':' || l.version
                           AND r.old_state = 'dead')
            THEN 'dead' ELSE 'pending' END,
       CASE WHEN l.rejection IS NULL THEN l.delivery_attempts ELSE 0 END,
       coalesce(l.next_delivery_at, l.seen_at),
       coalesce(l.rejection, l.waiting_for), l.seen_at, l.seen_at
FROM ledger AS l WHERE l.delivered_at IS NULL ORDER BY l.seq
ON CONFLICT (idempotency_key) DO NOTHING;

UPDATE dead_letters SET job_id = (
  SELECT q.id FROM refused AS r JOIN queue AS q ON q.idempotency_key = r.key
  WHERE r.old_id = dead_letters.job_id AND q.kind LIKE 'deliver.%')
WHERE job_id IN (SELECT r.old_id FROM refused AS r JOIN queue AS q ON q.idempotency_key = r.key
                 WHERE q.kind LIKE 'deliver.%');

UPDATE queue SET lease_until = NULL, superseded_by = (
  SELECT q.id FROM refused AS r JOIN queue AS q ON q.idempotency_key = r.key
  WHERE r.old_id = queue.id AND q.kind LIKE 'deliver.%')
WHERE kind = 'erp.redeliver';
UPDATE queue SET state = CASE WHEN superseded_by IS NULL THEN 'done' ELSE 'superseded' END
WHERE kind = 'erp.redeliver';

DROP TABLE refused;
ALTER TABLE ledger DROP COLUMN delivery_attempts;
ALTER TABLE ledger DROP COLUMN next_delivery_at;
ALTER TABLE ledger DROP COLUMN rejection;
ALTER TABLE ledger DROP COLUMN waiting_for;
`;

/**
 * What the daemon last wrote to each record on the platform, as a fingerprint, so a pulled
 * version that is only our own write coming back is not handed to the ERP (src/contract/ownChange.ts).
 */
const ownWrites = `
CREATE TABLE own_writes (
  resource     TEXT NOT NULL,
  _id          TEXT NOT NULL,
  fields       TEXT NOT NULL CHECK (json_valid(fields)),
  written_hash TEXT NOT NULL,
  base_fields  TEXT NOT NULL CHECK (json_valid(base_fields)),
  base_hash    TEXT NOT NULL,
  editor       TEXT,
  written_at   TEXT NOT NULL,
  PRIMARY KEY (resource, _id)
) STRICT;
`;

/**
 * Each record's text is stored once. The mirror holds the latest version's; the ledger keeps a
 * version's SHA-256 for good and its text only while the mirror does not hold it and a delivery
 * of it may still run (a `deliver.<resource>` job pending, running or dead, so retryable). When
 * the mirror moves on from a version such a job still needs, the trigger moves that version's
 * text into its ledger row first, whoever writes the mirror (a pull, a reference fetched, the
 * answer to our own write). Existing rows get their hash (`sha256()` is registered by
 * migrate.ts) and give up the copies no delivery needs.
 */
const recordsOnce = `
ALTER TABLE ledger ADD COLUMN sha256 TEXT;
UPDATE ledger SET sha256 = sha256(json), json = CASE
    WHEN EXISTS (SELECT 1 FROM mirror AS m
      WHERE m.resource = ledger.resource AND m._id = ledger._id AND m.version = ledger.version
        AND m.json = ledger.json)
      OR NOT EXISTS (SELECT 1 FROM queue AS q
      WHERE q.entity_key = ledger.resource || ':' || ledger._id
        AND q.kind = 'deliver.' || ledger.resource AND q.state IN ('pending', 'running', 'dead')
        AND json_extract(q.payload, '$.version') = ledger.version)
    THEN NULL ELSE json END
WHERE json IS NOT NULL;

CREATE TRIGGER mirror_keeps_due_versions AFTER UPDATE OF json, version ON mirror
WHEN old.json IS NOT new.json OR old.version IS NOT new.version
BEGIN
  UPDATE ledger SET json = old.json
  WHERE resource = old.resource AND _id = old._id AND version = old.version AND json IS NULL
    AND EXISTS (SELECT 1 FROM queue
      WHERE entity_key = old.resource || ':' || old._id AND kind = 'deliver.' || old.resource
        AND state IN ('pending', 'running', 'dead')
        AND json_extract(payload, '$.version') = old.version);
END;
`;

/**
 * The pending jobs in the order they were queued, so that a worker's pass reads the oldest
 * ready ones and stops (readyJobs): without it each pass looked at every pending job, and a
 * backlog of 100,000 hand-overs cost 0.1 s of blocked event loop per pass of 256 jobs.
 */
const pendingInOrder = `
CREATE INDEX queue_pending ON queue (id) WHERE state = 'pending';
`;

/**
 * When each resource last pulled successfully, found by one look-up whatever the number of
 * runs (lastSuccessfulPulls, for /readyz): the runs table gains a row per pull, a million in
 * some months, and a scan of it held the daemon 0.5 s on every readiness probe.
 */
const lastSuccess = `
CREATE INDEX runs_succeeded ON runs (resource, finished_at) WHERE ok = 1 AND kind = 'pull';
`;

/**
 * The open jobs of each entity, so that whether a job is first in line for its entity is one
 * look-up (readyJobs) however many done jobs the entity has behind it: an article the ERP sends
 * every day has hundreds after a year, and reading them all for each job made a pass 25 ms at
 * 100 per entity.
 */
const openPerEntity = `
CREATE INDEX queue_open ON queue (entity_key, id) WHERE state IN ('pending', 'running');
`;

/**
 * One index of the jobs by state in queue order serves what queue_claim (by state and next
 * try) and queue_pending (the pending jobs in queue order) did: no query reads jobs by their
 * next try, and every index is written with each job queued (a pull queues one per record).
 */
const jobsByState = `
DROP INDEX queue_claim;
DROP INDEX queue_pending;
CREATE INDEX queue_state ON queue (state, id);
`;

/**
 * A job's wait that the other side asked for (its `Retry-After`), apart from our own back-off,
 * which `sync --once` skips. Jobs already waiting keep their time and count as our back-off.
 */
const retryAfterUntil = `
ALTER TABLE queue ADD COLUMN retry_after_until TEXT;
`;

/**
 * What pruning (housekeeping/retention/) and erasure (housekeeping/erasure/) need. Indexes on
 * the child keys of the rows pruning deletes: SQLite checks a foreign key by looking the
 * children up, a read of the whole child table per deleted row without one (partial, so rows set
 * free leave them). Indexes that find what is past retention by time without reading what is
 * not: finished jobs, kept ERP message bodies, own-write fingerprints, and ended orders and care
 * arrangements (Deleted or archived) whose body is not yet reduced (`_reduced`,
 * store/reducedRecord.ts). A cursor where the walk of the ledger stopped (the newest version of
 * every record stays, so it cannot start at the first row). Backups made by `homecare-sync
 * backup`, and the audit of every erasure.
 */
const retention = `
CREATE TABLE retention_cursors (
  name     TEXT PRIMARY KEY,
  position INTEGER NOT NULL
) STRICT;
CREATE INDEX ledger_run ON ledger (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX quarantine_run ON quarantine (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX queue_superseded_by ON queue (superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX queue_finished ON queue (updated_at) WHERE state IN ('done', 'superseded');
CREATE INDEX inbox_messages_bodies ON inbox_messages (processed_at) WHERE body <> '';
CREATE INDEX own_writes_written ON own_writes (written_at);
CREATE INDEX mirror_ended ON mirror (updated_at)
  WHERE resource IN ('singleOrder', 'directOrder', 'integratedCare', 'erpOrder')
    AND (json ->> '$.archived' = 1
      OR (resource IN ('singleOrder', 'directOrder') AND json ->> '$.status' = -1))
    AND json ->> '$._reduced' IS NULL;

CREATE TABLE backups (
  path    TEXT PRIMARY KEY,
  made_at TEXT NOT NULL,
  bytes   INTEGER NOT NULL
) STRICT;

CREATE TABLE erasures (
  id      INTEGER PRIMARY KEY,
  subject TEXT NOT NULL,
  records TEXT NOT NULL CHECK (json_valid(records)),
  removed TEXT NOT NULL CHECK (json_valid(removed)),
  forced  INTEGER NOT NULL CHECK (forced IN (0, 1)),
  os_user TEXT NOT NULL,
  host    TEXT NOT NULL,
  at      TEXT NOT NULL
) STRICT;
`;

/** What operators did by hand (queue retry and drop, redeliver, checkpoint reset), and who. */
const operatorActions = `
CREATE TABLE operator_actions (
  id      INTEGER PRIMARY KEY,
  action  TEXT NOT NULL,
  subject TEXT NOT NULL,
  detail  TEXT,
  os_user TEXT NOT NULL,
  host    TEXT NOT NULL,
  at      TEXT NOT NULL
) STRICT;
CREATE INDEX operator_actions_subject ON operator_actions (subject, id);
`;

/**
 * What an operator paused (`homecare-sync pause`): the scheduled pulls of a resource, or the
 * platform writes of a job kind; `*` for the whole direction. The row stays after the resume
 * (`resumed_at`): readiness counts a resource's freshness from then. Who did it is in
 * operator_actions.
 */
const pauses = `
CREATE TABLE pauses (
  direction  TEXT NOT NULL CHECK (direction IN ('pull', 'push')),
  target     TEXT NOT NULL,
  paused_at  TEXT NOT NULL,
  resumed_at TEXT,
  PRIMARY KEY (direction, target)
) STRICT;
`;

/**
 * Whether a run read its list whole (a first pull, a list without a time parameter, a
 * reconciliation of a list that leaves archived records out): the count of the last such run is
 * what the next one's progress estimates its end from, since a list carries no total.
 */
const wholeRuns = `
ALTER TABLE runs ADD COLUMN whole INTEGER NOT NULL DEFAULT 0 CHECK (whole IN (0, 1));
`;

/**
 * Finding what retention.endedKeys lets go: reduced records by when their last version was
 * stored, handled ERP messages whose body is gone by when they were handled.
 */
const endedKeys = `
CREATE INDEX mirror_reduced ON mirror (updated_at) WHERE json ->> '$._reduced' IS NOT NULL;
CREATE INDEX inbox_messages_keys ON inbox_messages (processed_at) WHERE body = '';
`;

/**
 * The acknowledgement's states 'pending' and 'done' are no longer written (the queue's job says
 * whether it was made), so nothing looks for 'pending' any more; old rows keep their value.
 */
const deadAckStates = `
DROP INDEX ledger_ack_pending;
`;

/**
 * Written only into the copy a backup makes (housekeeping/backup/restorePoint.ts), never into the database
 * itself: a database that holds the row runs on a restored backup taken at `taken_at`.
 */
const restorePoint = `
CREATE TABLE restore_point (
  one      INTEGER PRIMARY KEY CHECK (one = 1),
  taken_at TEXT NOT NULL
) STRICT;
`;

/**
 * What each pulled version changed: the names of its fields that differ from the record the
 * mirror held before it, as JSON (`["deliveryAddress.street","status"]`), or `"new"` for a record
 * first seen; never values, so it stays when `forget` or retention drops the bodies. NULL where
 * no pull compared it: versions stored before this column, and the ones our own writes' answers
 * or a redelivery noted.
 */
const versionChanges = `
ALTER TABLE ledger ADD COLUMN changed TEXT CHECK (changed IS NULL OR json_valid(changed));
`;

/** What the platform answered a done job's write (status, or why nothing was sent), for trace. */
const jobAnswers = `
ALTER TABLE queue ADD COLUMN answer TEXT;
`;

/**
 * The last verdict of each point of `check --online`: kept per check (a run of some checks with
 * --only or --skip replaces only theirs), shown by `status` and exported as gauges. `position`
 * keeps the order the check prints them in.
 */
const onlineChecks = `
CREATE TABLE online_checks (
  id         TEXT PRIMARY KEY,
  position   INTEGER NOT NULL,
  status     TEXT NOT NULL CHECK (status IN ('pass', 'warn', 'fail', 'skip')),
  ms         INTEGER NOT NULL,
  message    TEXT NOT NULL,
  hint       TEXT,
  checked_at TEXT NOT NULL
) STRICT;
`;

/**
 * ERP messages known by what they say (issue 36): `entity` is the business key of what a message
 * is about (its kind's descriptor gives it), `content` the SHA-256 of its canonical JSON, `stamp`
 * the ERP's own stamp; a message that repeats an earlier one under another name is kept as a row
 * of its own (`repeat_of` that one, no body), one refused as overtaken as `rejected`. Messages
 * kept before get their content from their body where it is still kept; they have no entity, so
 * none of them is the last of its entity (`sha256` stays as it was: their jobs' keys hold it).
 * Batch files are found by their number (`trace singleOrder_0000000057.csv`).
 */
const messageIdentity = `
ALTER TABLE inbox_messages ADD COLUMN entity TEXT;
ALTER TABLE inbox_messages ADD COLUMN content TEXT;
ALTER TABLE inbox_messages ADD COLUMN stamp TEXT;
ALTER TABLE inbox_messages ADD COLUMN repeat_of INTEGER;
UPDATE inbox_messages SET content = canonical_sha256(body) WHERE body <> '';
CREATE INDEX inbox_messages_content ON inbox_messages (kind, content) WHERE content IS NOT NULL;
CREATE INDEX inbox_messages_entity ON inbox_messages (entity, kind, id) WHERE entity IS NOT NULL;
CREATE INDEX queue_batches ON queue (batch_id) WHERE batch_id IS NOT NULL;
`;

/**
 * The jobs of each kind by state in queue order: a pass serves the kinds with ready jobs side by
 * side, by their weights (queue/fairShare.ts), and finds each kind's oldest ready jobs without
 * reading the backlog of the others (a first pull queues 300,000 hand-overs of one resource).
 */
const jobsByKind = `
CREATE INDEX queue_kind ON queue (state, kind, id);
`;

/**
 * The console (issue 40): a search by any key stays an index look-up, exact or by prefix (the
 * ERP's file and request names; an order's erpOrderNumber, which only its body holds: indexed for
 * the orders that have one, so a pull of orders without one pays a look at its resource only);
 * its logins, by the hash of each session's secret.
 */
const consoleSearch = `
CREATE INDEX inbox_messages_name ON inbox_messages (name);
CREATE INDEX mirror_erp_order_number ON mirror (json ->> '$.erpOrderNumber')
  WHERE resource IN ('singleOrder', 'directOrder') AND json ->> '$.erpOrderNumber' IS NOT NULL;
CREATE TABLE console_sessions (
  secret_sha256 TEXT PRIMARY KEY,
  user          TEXT NOT NULL,
  created_at    TEXT NOT NULL,
  expires_at    TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`;

export const MIGRATIONS: readonly Migration[] = [
  { name: 'initial schema', sql: initial },
  { name: 'ledger keeps each version and what it waits for', sql: ledgerRecords },
  { name: 'delivery retries and refusals', sql: deliveryRetries },
  { name: 'delivery to the ERP as queue jobs', sql: deliveryJobs },
  { name: 'fingerprints of our own writes', sql: ownWrites },
  { name: 'each record stored once: the ledger keeps hashes', sql: recordsOnce },
  { name: 'pending jobs in queue order', sql: pendingInOrder },
  { name: 'last successful pull of each resource', sql: lastSuccess },
  { name: 'open jobs of each entity', sql: openPerEntity },
  { name: 'jobs by state in queue order', sql: jobsByState },
  { name: "the wait a job's Retry-After asked for", sql: retryAfterUntil },
  { name: 'retention, backups and erasure', sql: retention },
  { name: 'operator actions', sql: operatorActions },
  { name: 'keys of ended records', sql: endedKeys },
  { name: 'acknowledgement states the queue tells', sql: deadAckStates },
  { name: 'pauses', sql: pauses },
  { name: 'runs that read their whole list', sql: wholeRuns },
  { name: 'the restore point of a backup copy', sql: restorePoint },
  { name: 'the fields each pulled version changed', sql: versionChanges },
  { name: 'what the platform answered a job', sql: jobAnswers },
  { name: 'the last online check', sql: onlineChecks },
  { name: 'ERP messages known by what they say', sql: messageIdentity },
  { name: 'pending jobs by kind', sql: jobsByKind },
  { name: 'the console: search by any key, sessions', sql: consoleSearch },
];

/** The schema version this build writes and understands. */
export const SCHEMA_VERSION = MIGRATIONS.length;
