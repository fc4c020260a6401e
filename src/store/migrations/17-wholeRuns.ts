/**
 * Whether a run read its list whole (a first pull, a list without a time parameter, a
 * reconciliation of a list that leaves archived records out): the count of the last such run is
 * what the next one's progress estimates its end from, since a list carries no total.
 */
export const name = 'runs that read their whole list';

export const sql = `
ALTER TABLE runs ADD COLUMN whole INTEGER NOT NULL DEFAULT 0 CHECK (whole IN (0, 1));
`;
