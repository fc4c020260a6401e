import Database from 'better-sqlite3';

/**
 * One table for every resource of every tenant. The columns beside `json` are what lists and
 * look-ups filter on, each behind an index, so a list of 100,000 articles is an index range
 * and a look-up by customerNumber or salesId is one seek. The look-up indexes are partial:
 * only rows that carry the column pay for them.
 */
const SCHEMA = `
CREATE TABLE records (
  tenant TEXT NOT NULL,
  resource TEXT NOT NULL,
  id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  timestamp TEXT NOT NULL,
  created_at TEXT NOT NULL,
  archived INTEGER NOT NULL,
  status_class TEXT,
  customer_number TEXT,
  sales_id TEXT,
  customer_id TEXT,
  serial_number TEXT,
  patient_id TEXT,
  acknowledged INTEGER NOT NULL,
  changed_by_client TEXT,
  -- Loop suppression 'next': 1 until a list of changed_by_client has left the change out once;
  -- left_out_by is that list, which keeps leaving it out for the rest of its pages.
  suppress_next INTEGER NOT NULL DEFAULT 0,
  left_out_by INTEGER,
  json TEXT NOT NULL
);
CREATE UNIQUE INDEX records_id ON records (tenant, resource, id);
CREATE INDEX records_list ON records (tenant, resource, archived, timestamp, id);
CREATE INDEX records_status ON records (tenant, resource, archived, status_class, timestamp, id)
  WHERE status_class IS NOT NULL;
CREATE INDEX records_customer_number ON records (tenant, resource, customer_number)
  WHERE customer_number IS NOT NULL;
CREATE INDEX records_sales_id ON records (tenant, resource, sales_id) WHERE sales_id IS NOT NULL;
CREATE INDEX records_customer_id ON records (tenant, resource, customer_id)
  WHERE customer_id IS NOT NULL;
CREATE INDEX records_patient_id ON records (tenant, resource, patient_id, archived, timestamp, id)
  WHERE patient_id IS NOT NULL;
CREATE TABLE files (
  tenant TEXT NOT NULL,
  id TEXT NOT NULL,
  content_type TEXT NOT NULL,
  data BLOB NOT NULL,
  PRIMARY KEY (tenant, id)
);
`;

export function openSimulatorDatabase(): Database.Database {
  const db = new Database(':memory:');
  // Rows carry whole records as JSON: bigger pages keep them on fewer overflow pages.
  db.pragma('page_size = 16384');
  db.exec(SCHEMA);
  return db;
}
