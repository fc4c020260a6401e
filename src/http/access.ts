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
  if (token === undefined || header === undefined) return false;
  const given = BEARER.exec(header)?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
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
