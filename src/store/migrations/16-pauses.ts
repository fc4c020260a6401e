/**
 * What an operator paused (`homecare-sync pause`): the scheduled pulls of a resource, or the
 * platform writes of a job kind; `*` for the whole direction. The row stays after the resume
 * (`resumed_at`): readiness counts a resource's freshness from then. Who did it is in
 * operator_actions.
 */
export const name = 'pauses';

export const sql = `
CREATE TABLE pauses (
  direction  TEXT NOT NULL CHECK (direction IN ('pull', 'push')),
  target     TEXT NOT NULL,
  paused_at  TEXT NOT NULL,
  resumed_at TEXT,
  PRIMARY KEY (direction, target)
) STRICT;
`;
