import { statement } from './statements.js';
import type { Store } from './store.js';

export interface Lease {
  name: string;
  holder: string;
  acquiredAt: string;
  expiresAt: string;
}

/**
 * Takes the named lease for `holder` for `ttlMs`, in one compare-and-swap statement: granted when
 * nobody holds it, when `holder` already does (then it is extended), or when the other holder's
 * lease has expired. While another holder's lease is valid, returns false.
 */
export function acquireLease(store: Store, name: string, holder: string, ttlMs: number): boolean {
  const now = store.clock.now();
  return (
    statement<Record<string, string>>(
      store.db,
      `INSERT INTO lease (name, holder, acquired_at, expires_at)
       VALUES (@name, @holder, @now, @expiresAt)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,
         acquired_at = CASE WHEN lease.holder = excluded.holder
           THEN lease.acquired_at ELSE excluded.acquired_at END,
         expires_at = excluded.expires_at
       WHERE lease.holder = excluded.holder OR lease.expires_at <= excluded.acquired_at`,
    ).run({
      name,
      holder,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
    }).changes === 1
  );
}

/**
 * Extends a lease `holder` still holds. False when another holder has taken it over (or it was
 * released): the caller has lost it and must stop writing.
 */
export function renewLease(store: Store, name: string, holder: string, ttlMs: number): boolean {
  return (
    statement<Record<string, string>>(
      store.db,
      'UPDATE lease SET expires_at = @expiresAt WHERE name = @name AND holder = @holder',
    ).run({
      name,
      holder,
      expiresAt: new Date(store.clock.now().getTime() + ttlMs).toISOString(),
    }).changes === 1
  );
}

/** Gives the lease up so another process may take it at once. False when `holder` had lost it. */
export function releaseLease(store: Store, name: string, holder: string): boolean {
  return (
    statement<Record<string, string>>(
      store.db,
      'DELETE FROM lease WHERE name = @name AND holder = @holder',
    ).run({ name, holder }).changes === 1
  );
}

export function getLease(store: Store, name: string): Lease | undefined {
  const row = statement<
    { name: string },
    { name: string; holder: string; acquired_at: string; expires_at: string }
  >(store.db, 'SELECT name, holder, acquired_at, expires_at FROM lease WHERE name = @name').get({
    name,
  });
  return row === undefined
    ? undefined
    : {
        name: row.name,
        holder: row.holder,
        acquiredAt: row.acquired_at,
        expiresAt: row.expires_at,
      };
}
