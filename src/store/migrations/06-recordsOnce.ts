/**
 * Each record's text is stored once. The mirror holds the latest version's; the ledger keeps a
 * version's SHA-256 for good and its text only while the mirror does not hold it and a delivery
 * of it may still run (a `deliver.<resource>` job pending, running or dead, so retryable). When
 * the mirror moves on from a version such a job still needs, the trigger moves that version's
 * text into its ledger row first, whoever writes the mirror (a pull, a reference fetched, the
 * answer to our own write). Existing rows get their hash (`sha256()` is registered by
 * migrate.ts) and give up the copies no delivery needs.
 */
export const name = 'each record stored once: the ledger keeps hashes';

export const sql = `
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
