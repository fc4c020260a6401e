/**
 * What a failed request's network error code says went wrong, so that a hint can tell the
 * operator what to check. The platform client and the ERP's REST adapter meet the same Node.js
 * and undici codes; each words its own hints (its config keys, whether it retries).
 */
export type NetworkFailure =
  /** Connected, but the answer did not come in time (undici's headers or body time-out). */
  | 'answerTimedOut'
  /** The connection itself took too long (undici's connect time-out, the OS's ETIMEDOUT). */
  | 'connectTimedOut'
  | 'refused'
  /** The host name did not resolve. */
  | 'unresolved'
  /** The TLS certificate was not trusted. */
  | 'untrusted'
  | 'other';

export function networkFailureOf(code: string): NetworkFailure {
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return 'answerTimedOut';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'connectTimedOut';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unresolved';
  if (/CERT|SELF_SIGNED|ERR_TLS/.test(code)) return 'untrusted';
  return 'other';
}
