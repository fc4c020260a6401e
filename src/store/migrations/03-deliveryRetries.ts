/**
 * Delivery to the ERP is retried with back-off like a queue job (`delivery_attempts`,
 * `next_delivery_at`); a version the ERP refused for good carries the reason in `rejection`
 * until an operator replays it.
 */
export const name = 'delivery retries and refusals';

export const sql = `
ALTER TABLE ledger ADD COLUMN delivery_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE ledger ADD COLUMN next_delivery_at TEXT;
ALTER TABLE ledger ADD COLUMN rejection TEXT;
`;
