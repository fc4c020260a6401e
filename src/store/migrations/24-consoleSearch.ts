/**
 * The console (issue 40): a search by any key stays an index look-up, exact or by prefix (the
 * ERP's file and request names; an order's erpOrderNumber, which only its body holds: indexed for
 * the orders that have one, so a pull of orders without one pays a look at its resource only);
 * its logins, by the hash of each session's secret.
 */
export const name = 'the console: search by any key, sessions';

export const sql = `
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
