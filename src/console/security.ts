import { isIP } from 'node:net';

/**
 * The headers every console answer carries: no script at all and nothing from elsewhere (the
 * Content-Security-Policy), no framing, nothing kept by a browser or a proxy, no referrer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Whether a client's address is this machine's own (IPv4 127/8, IPv6 ::1, IPv4 in IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** The headers a same-origin check reads. */
export interface OriginHeaders {
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
}

/**
 * Whether a request that changes something comes from the console's own pages: the browser's
 * `Sec-Fetch-Site` says so, or, from a browser that sends none, its `Origin` names this host.
 * A request with neither is refused: every browser that can run the console sends one of them.
 */
export function isSameOrigin(headers: OriginHeaders): boolean {
  if (headers.secFetchSite !== undefined) return headers.secFetchSite === 'same-origin';
  if (headers.origin === undefined || headers.host === undefined) return false;
  if (!URL.canParse(headers.origin)) return false;
  return new URL(headers.origin).host === headers.host.toLowerCase();
}
