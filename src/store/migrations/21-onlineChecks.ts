/**
 * The last verdict of each point of `check --online`: kept per check (a run of some checks with
 * --only or --skip replaces only theirs), shown by `status` and exported as gauges. `position`
 * keeps the order the check prints them in.
 */
export const name = 'the last online check';

export const sql = `
CREATE TABLE online_checks (
  id         TEXT PRIMARY KEY,
  position   INTEGER NOT NULL,
  status     TEXT NOT NULL CHECK (status IN ('pass', 'warn', 'fail', 'skip')),
  ms         INTEGER NOT NULL,
  message    TEXT NOT NULL,
  hint       TEXT,
  checked_at TEXT NOT NULL
) STRICT;
`;
