/**
 * One index of the jobs by state in queue order serves what queue_claim (by state and next
 * try) and queue_pending (the pending jobs in queue order) did: no query reads jobs by their
 * next try, and every index is written with each job queued (a pull queues one per record).
 */
export const name = 'jobs by state in queue order';

export const sql = `
DROP INDEX queue_claim;
DROP INDEX queue_pending;
CREATE INDEX queue_state ON queue (state, id);
`;
