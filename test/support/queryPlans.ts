import { vi } from 'vitest';
import type { Store } from '../../src/store/index.js';

/**
 * SQLite's query plans (EXPLAIN QUERY PLAN, one text per statement) of the statements `work`
 * prepares on a store that has not prepared them before: to check that a look-up reads what it
 * needs through an index, not a whole table, whatever its size.
 */
export function queryPlansOf(store: Store, work: () => void): string[] {
  const prepared: string[] = [];
  const prepare = store.db.prepare.bind(store.db);
  const spy = vi.spyOn(store.db, 'prepare').mockImplementation((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  });
  try {
    work();
  } finally {
    spy.mockRestore();
  }
  return prepared.map((sql) => {
    // Every named parameter bound to null: the plan does not depend on the values.
    const names = new Set([...sql.matchAll(/@(\w+)/g)].map((match) => match[1] ?? ''));
    return store.db
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(Object.fromEntries([...names].map((name) => [name, null])))
      .map((row) => (row as { detail: string }).detail)
      .join('\n');
  });
}

/**
 * A plan that reads a table the database keeps growing whole (a SCAN), or all of one resource
 * of the mirror through its primary key where a key's index would name the row.
 */
export const WHOLE_TABLE =
  /\bSCAN (mirror|ledger|queue|inbox_messages|dead_letters|operator_actions|runs)\b|mirror USING INDEX sqlite_autoindex_mirror_1 \(resource=\?\)/;
