/** What operators did by hand (queue retry and drop, redeliver, checkpoint reset), and who. */
export const name = 'operator actions';

export const sql = `
CREATE TABLE operator_actions (
  id      INTEGER PRIMARY KEY,
  action  TEXT NOT NULL,
  subject TEXT NOT NULL,
  detail  TEXT,
  os_user TEXT NOT NULL,
  host    TEXT NOT NULL,
  at      TEXT NOT NULL
) STRICT;
CREATE INDEX operator_actions_subject ON operator_actions (subject, id);
`;
