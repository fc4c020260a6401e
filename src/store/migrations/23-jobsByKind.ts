/**
 * The jobs of each kind by state in queue order: a pass serves the kinds with ready jobs side by
 * side, by their weights (queue/fairShare.ts), and finds each kind's oldest ready jobs without
 * reading the backlog of the others (a first pull queues 300,000 hand-overs of one resource).
 */
export const name = 'pending jobs by kind';

export const sql = `
CREATE INDEX queue_kind ON queue (state, kind, id);
`;
