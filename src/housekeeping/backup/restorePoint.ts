import Sqlite from 'better-sqlite3';
import { plainQuery, plainStatement } from '../../store/statements.js';
import type { Store } from '../../store/store.js';

/**
 * Marks the copy a backup made, at `file`, as taken at `takenAt`: the database itself never holds
 * the row, so a database that does runs on a restored backup (restorePointOf). A copy of a
 * database restored but not yet started keeps the older point: what came after it is still
 * unknown to both.
 */
export function markRestorePoint(file: string, takenAt: string): void {
  const copy = new Sqlite(file);
  try {
    copy
      .prepare(
        'INSERT INTO restore_point (one, taken_at) VALUES (1, ?) ON CONFLICT (one) DO NOTHING',
      )
      .run(takenAt);
  } finally {
    copy.close();
  }
}

/** When the backup this database was restored from was taken; undefined for any other. */
export function restorePointOf(store: Store): string | undefined {
  return plainQuery<{ taken_at: string }>(store.db, 'SELECT taken_at FROM restore_point', {
    taken_at: 'text',
  }).get()?.taken_at;
}

/** The restore is dealt with (operations/restored.ts): from here on the database is the daemon's own. */
export function clearRestorePoint(store: Store): void {
  plainStatement(store.db, 'DELETE FROM restore_point').run();
}
