import { query, statement } from './statements.js';
import type { Store } from './store.js';

/**
 * The console's logins (src/console/): a row per session, known by the SHA-256 of the secret
 * its cookie carries (the secret itself is kept nowhere), kept until it expires or its user
 * logs out. A restart or a reload of the daemon keeps its users logged in.
 */

export interface ConsoleSession {
  user: string;
  createdAt: string;
  expiresAt: string;
}

/** Keeps a new session, and lets the expired ones go. */
export function openConsoleSession(
  store: Store,
  secretSha256: string,
  session: ConsoleSession,
): void {
  statement<{ now: string }>(store.db, 'DELETE FROM console_sessions WHERE expires_at <= @now').run(
    { now: session.createdAt },
  );
  statement<Record<string, string>>(
    store.db,
    `INSERT INTO console_sessions (secret_sha256, user, created_at, expires_at)
     VALUES (@secretSha256, @user, @createdAt, @expiresAt)`,
  ).run({ secretSha256, ...session });
}

/** The session whose secret hashes to `secretSha256`, unless it expired by `now`. */
export function consoleSessionOf(
  store: Store,
  secretSha256: string,
  now: string,
): ConsoleSession | undefined {
  const row = query<
    { secretSha256: string; now: string },
    { user: string; created_at: string; expires_at: string }
  >(
    store.db,
    `SELECT user, created_at, expires_at FROM console_sessions
     WHERE secret_sha256 = @secretSha256 AND expires_at > @now`,
    { user: 'text', created_at: 'text', expires_at: 'text' },
  ).get({ secretSha256, now });
  return row === undefined
    ? undefined
    : { user: row.user, createdAt: row.created_at, expiresAt: row.expires_at };
}

/** Ends a session (a logout). */
export function closeConsoleSession(store: Store, secretSha256: string): void {
  statement<{ secretSha256: string }>(
    store.db,
    'DELETE FROM console_sessions WHERE secret_sha256 = @secretSha256',
  ).run({ secretSha256 });
}
