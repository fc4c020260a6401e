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
export const name = 'retention, backups and erasure';

export const sql = `
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
