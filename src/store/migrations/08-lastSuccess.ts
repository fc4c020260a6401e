/**
 * When each resource last pulled successfully, found by one look-up whatever the number of
 * runs (lastSuccessfulPulls, for /readyz): the runs table gains a row per pull, a million in
 * some months, and a scan of it held the daemon 0.5 s on every readiness probe.
 */
export const name = 'last successful pull of each resource';

export const sql = `
CREATE INDEX runs_succeeded ON runs (resource, finished_at) WHERE ok = 1 AND kind = 'pull';
`;
