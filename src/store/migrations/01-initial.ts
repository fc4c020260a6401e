export const name = 'initial schema';

export const sql = `
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
