import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * `Authorization: Bearer <token>`. The scheme name is case-insensitive (RFC 9110, 11.1), so
 * `bearer` and `BEARER` are the same scheme.
 */
const BEARER = /^bearer +(\S+) *$/i;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the header carries `token`. Both sides are compared as SHA-256 digests, which are of
 * equal length whatever was sent, so neither the comparison nor an early length check tells a
 * caller how long the token is.
 */
export function tokenMatches(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return false;
  const given = bearerToken(header);
  return given !== undefined && sameSecret(given, token);
}

/** The token of an `Authorization: Bearer <token>` header, if it is one. */
export function bearerToken(header: string | undefined): string | undefined {
  return BEARER.exec(header ?? '')?.[1];
}

/** Compared as SHA-256 digests: equal length, so the time says nothing of the secret's. */
export function sameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(digest(given), digest(secret));
}

/**
 * What a route's `config` says about who may call it: routes without `public` need the token,
 * except those that decide it themselves (`own`: the console's, with its own logins).
 */
export interface RouteAccess {
  public?: boolean;
  own?: boolean;
}

export const PUBLIC: { config: RouteAccess } = { config: { public: true } };
