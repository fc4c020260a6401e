import { hideSecrets, secretsOf } from './auth.js';
import type { RestAdapterOptions } from './options.js';
import type { ErpRequest } from './send.js';

/** A request to the ERP as it may be printed: every credential in it replaced by `***`. */
export interface ShownRequest {
  method: ErpRequest['method'];
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * `request` for a person to read (`mapping preview`): the credentials of `options.auth` hidden
 * wherever they stand (a header, the URL, the body), and a password in the URL too.
 */
export function shownRequest(options: RestAdapterOptions, request: ErpRequest): ShownRequest {
  const secrets = secretsOf(options.auth);
  const url = new URL(request.url);
  if (url.password !== '') url.password = '***';
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, hideSecrets(value, secrets)]),
  );
  return {
    method: request.method,
    url: hideSecrets(url.toString(), secrets),
    headers,
    body: hideSecrets(request.body, secrets),
  };
}
