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
export const name = 'delivery to the ERP as queue jobs';

export const sql = `
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
