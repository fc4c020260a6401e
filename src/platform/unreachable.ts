/**
 * The code of a request that found no platform to talk to. Only such failures open the
 * platform-wide breaker: with no connection, every request fails the same way, so one outage
 * is one alert. Anything that happens once a connection stands (a reset, a time-out waiting
 * for the answer, a 5xx, a cut body) may be one list's trouble and is that resource's failure.
 */
export const UNREACHABLE_CODE = 'UNREACHABLE';

/**
 * The connection (TCP, TLS, or the proxy's tunnel) could not be made. A reset is not here: it
 * comes after the connection stood, and a platform or proxy may reset one slow request (a
 * per-request limit, a crashed handler) while serving the others.
 */
const NO_CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  // The OS gave up on the handshake, or undici's connect time-out (platform.timeoutMs) did.
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Certificate and handshake failures (OpenSSL's and Node's codes): no request gets through. */
const TLS_FAILURE = /CERT|SELF_SIGNED|UNABLE_TO_|INVALID_CA|HOSTNAME_MISMATCH|ERR_TLS|ERR_SSL/;

/** undici's words when the proxy refused the CONNECT tunnel (its code is a generic abort). */
const TUNNEL_REFUSED = /when HTTP Tunneling/;

/** Whether a network failure with this code and message means no connection could be made. */
export function cannotConnect(code: string, message: string): boolean {
  return NO_CONNECTION_CODES.has(code) || TLS_FAILURE.test(code) || TUNNEL_REFUSED.test(message);
}

/** The body stalled for longer than platform.timeoutMs: our time-out, not a cut connection. */
export function bodyTimedOut(cause: unknown): boolean {
  return (
    typeof cause === 'object' &&
    cause !== null &&
    (cause as { code?: unknown }).code === 'UND_ERR_BODY_TIMEOUT'
  );
}
