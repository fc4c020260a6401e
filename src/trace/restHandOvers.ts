import type { ResourceName } from '../contract/index.js';
import type { RestAdapterOptions } from '../erp/outbound/rest/options.js';
import { archivalTargetOf, expandUrl, targetOf } from '../erp/outbound/rest/urls.js';
import { archivalKey, handOverKey } from '../store/index.js';
import type { HandOverNaming } from './handOvers.js';

/**
 * The REST adapter's requests (erp/outbound/rest/): method, URL (without user info or
 * query, which may carry a secret) and Idempotency-Key; a hand-over is done only on a 2xx.
 * Loaded only for a config whose adapter is REST, as the adapter itself is.
 */
export function restHandOvers(options: RestAdapterOptions): HandOverNaming {
  return (handed) => {
    const resource = handed.resource as ResourceName;
    if (handed.archival && options.archivalEvents !== true) {
      return ' (nothing sent: erp.rest.archivalEvents is off)';
    }
    const target = handed.archival
      ? archivalTargetOf(options, resource)
      : targetOf(options, resource);
    const values = { resource, _id: handed.id, version: handed.version };
    let where: string;
    try {
      const url = expandUrl(options.baseUrl, target.template, values);
      where = `${url.origin}${url.pathname}`;
    } catch {
      // The hand-over failed on the same template and its dead letter says why; here, only where.
      where = `(no URL: ${target.template})`;
    }
    const version = handOverKey(handed.resource, handed.id, handed.version);
    const key = handed.archival ? archivalKey(version) : version;
    return `: ${target.method} ${where} (Idempotency-Key ${key}), answered 2xx`;
  };
}
