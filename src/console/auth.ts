import { createHash, randomBytes } from 'node:crypto';
import type { ConsoleConfig, ConsoleRole } from '../config/consoleSchema.js';
import { bearerToken, sameSecret } from '../http/access.js';
import type { Clock } from '../shared/clock.js';
import { parsePasswordHash, passwordMatches, type PasswordHash } from '../shared/passwordHash.js';
import {
  closeConsoleSession,
  consoleSessionOf,
  openConsoleSession,
  transaction,
  type Store,
} from '../store/index.js';
import { LoginLimit } from './loginLimit.js';
import type { Viewer } from './viewer.js';

/** The cookie of a console session: its secret, random, 32 bytes. */
export const SESSION_COOKIE = 'homecare_sync_console';

/** A session of a token login is kept under this user, with the token's role. */
const TOKEN_USER = 'token:';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** `Cookie: a=1; b=2` → the value of `name`. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** A hash checked when the user is not known, so that a wrong name takes as long as a wrong password. */
const DECOY = parsePasswordHash(
  '$scrypt$ln=15,r=8,p=1$ZGVjb3lkZWNveWRlY295$ZGVjb3lkZWNveWRlY295ZGVjb3lkZWNveWRlY295ZGU',
) as PasswordHash;

export type LoginOutcome =
  | { ok: true; viewer: Viewer; cookie: string; maxAgeSeconds: number }
  | { ok: false; retryAfterSeconds?: number };

/**
 * Who may use the console, as `console` in the config says: users by name with a password hash,
 * a token per role. A login opens a session kept in the database (store/consoleSessions.ts);
 * each request's viewer is read again from the config, so a user removed or given another role
 * by a reload is so at once.
 */
export class ConsoleAuth {
  private readonly limit: LoginLimit;
  private readonly hashes = new Map<string, PasswordHash>();
  /** Password checks run one after the other: each takes 32 MiB for a tenth of a second. */
  private checks: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: ConsoleConfig,
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.limit = new LoginLimit(config.loginAttempts, config.loginWindowMinutes * 60_000);
    for (const [name, user] of Object.entries(config.users)) {
      const parsed = parsePasswordHash(user.passwordHash);
      if (!('problem' in parsed)) this.hashes.set(name, parsed);
    }
  }

  /** The viewer of a token, if it is one of the console's. */
  private tokenViewer(token: string): Viewer | undefined {
    const { operatorToken, readOnlyToken } = this.config;
    if (operatorToken !== undefined && sameSecret(token, operatorToken)) {
      return { name: 'operator token', role: 'operator' };
    }
    if (readOnlyToken !== undefined && sameSecret(token, readOnlyToken)) {
      return { name: 'read-only token', role: 'readOnly' };
    }
    return undefined;
  }

  /** The viewer a session's user is now: gone when the config no longer has it. */
  private sessionViewer(user: string): Viewer | undefined {
    if (user.startsWith(TOKEN_USER)) {
      const role = user.slice(TOKEN_USER.length) as ConsoleRole;
      const configured =
        role === 'operator' ? this.config.operatorToken : this.config.readOnlyToken;
      if (configured === undefined) return undefined;
      return { name: role === 'operator' ? 'operator token' : 'read-only token', role };
    }
    const configured = this.config.users[user];
    return configured === undefined ? undefined : { name: user, role: configured.role };
  }

  /** Who sends a request: by its bearer token, else by its session cookie. */
  viewerOf(headers: {
    authorization?: string | undefined;
    cookie?: string | undefined;
  }): { viewer: Viewer; by: 'token' | 'session' } | undefined {
    const bearer = bearerToken(headers.authorization);
    if (bearer !== undefined) {
      const viewer = this.tokenViewer(bearer);
      return viewer === undefined ? undefined : { viewer, by: 'token' };
    }
    const secret = cookieValue(headers.cookie, SESSION_COOKIE);
    if (secret === undefined || secret === '') return undefined;
    const session = consoleSessionOf(
      this.store,
      sha256(secret).toString('hex'),
      this.clock.now().toISOString(),
    );
    const viewer = session === undefined ? undefined : this.sessionViewer(session.user);
    return viewer === undefined ? undefined : { viewer, by: 'session' };
  }

  /**
   * A login by user name and password, or (no name) by a token: a session when it holds, else
   * refused; refused at once, with when to try again, after too many failures from the address
   * or for the user.
   */
  async login(name: string, password: string, address: string): Promise<LoginOutcome> {
    const keys = [`address:${address}`, ...(name === '' ? [] : [`user:${name}`])];
    const now = this.clock.now().getTime();
    const wait = this.limit.waitMs(keys, now);
    if (wait > 0) return { ok: false, retryAfterSeconds: Math.ceil(wait / 1000) };
    const checked = this.checks.then(() => this.check(name, password));
    // The chain only orders the checks; this login's failure reaches it through `await checked`.
    this.checks = checked.catch(() => undefined);
    const viewer = await checked;
    if (viewer === undefined) {
      this.limit.failed(keys, now);
      return { ok: false };
    }
    this.limit.succeeded(keys);
    const secret = randomBytes(32).toString('base64url');
    const maxAgeSeconds = this.config.sessionMinutes * 60;
    const user = name === '' ? `${TOKEN_USER}${viewer.role}` : name;
    transaction(this.store, () =>
      openConsoleSession(this.store, sha256(secret).toString('hex'), {
        user,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + maxAgeSeconds * 1000).toISOString(),
      }),
    );
    return { ok: true, viewer, cookie: secret, maxAgeSeconds };
  }

  private async check(name: string, password: string): Promise<Viewer | undefined> {
    if (name === '') return this.tokenViewer(password);
    const hash = this.hashes.get(name);
    const matches = await passwordMatches(password, hash ?? DECOY);
    const role = this.config.users[name]?.role;
    return matches && hash !== undefined && role !== undefined ? { name, role } : undefined;
  }

  /** Ends the session of a cookie, if it has one. */
  logout(cookie: string | undefined): void {
    const secret = cookieValue(cookie, SESSION_COOKIE);
    if (secret === undefined || secret === '') return;
    transaction(this.store, () => closeConsoleSession(this.store, sha256(secret).toString('hex')));
  }
}
