/**
 * A job's wait that the other side asked for (its `Retry-After`), apart from our own back-off,
 * which `sync --once` skips. Jobs already waiting keep their time and count as our back-off.
 */
export const name = "the wait a job's Retry-After asked for";

export const sql = `
ALTER TABLE queue ADD COLUMN retry_after_until TEXT;
`;
