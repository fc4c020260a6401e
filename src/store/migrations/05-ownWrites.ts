/**
 * What the daemon last wrote to each record on the platform, as a fingerprint, so a pulled
 * version that is only our own write coming back is not handed to the ERP (src/contract/ownChange.ts).
 */
export const name = 'fingerprints of our own writes';

export const sql = `
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
