/**
 * Written only into the copy a backup makes (housekeeping/backup/restorePoint.ts), never into the database
 * itself: a database that holds the row runs on a restored backup taken at `taken_at`.
 */
export const name = 'the restore point of a backup copy';

export const sql = `
CREATE TABLE restore_point (
  one      INTEGER PRIMARY KEY CHECK (one = 1),
  taken_at TEXT NOT NULL
) STRICT;
`;
