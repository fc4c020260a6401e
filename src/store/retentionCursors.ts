import { query, statement } from './statements.js';
import type { Store } from './store.js';

/**
 * Where retention's walks stopped (`retention_cursors`), and the newest stamp of an ended record
 * per resource whose keys retention let go.
 */

/** The position kept under `name`, 0 before the first. */
export function retentionCursor(store: Store, name: string): number {
  return (
    query<{ name: string }, { position: number }>(
      store.db,
      'SELECT position FROM retention_cursors WHERE name = @name',
      { position: 'number' },
    ).get({ name })?.position ?? 0
  );
}

/** Moves the cursor `name` on to `position` (never back). */
export function moveRetentionCursor(store: Store, name: string, position: number): void {
  statement<{ name: string; position: number }>(
    store.db,
    `INSERT INTO retention_cursors (name, position) VALUES (@name, @position)
     ON CONFLICT (name) DO UPDATE SET position = max(position, excluded.position)`,
  ).run({ name, position });
}

const forgottenCursor = (resource: string): string => `forgotten:${resource}`;

/** Notes that retention let go of an ended record of `resource` whose version has `stamp`. */
export function noteForgotten(store: Store, resource: string, stamp: number): void {
  moveRetentionCursor(store, forgottenCursor(resource), stamp);
}

/**
 * The newest stamp of an ended record of `resource` whose keys retention let go, or undefined
 * when none went: a version listed again that ends the record with a stamp up to it was seen
 * and handed over before.
 */
export function forgottenThrough(store: Store, resource: string): number | undefined {
  const position = retentionCursor(store, forgottenCursor(resource));
  return position === 0 ? undefined : position;
}
