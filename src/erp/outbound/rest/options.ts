import type { ResourceName } from '../../../contract/index.js';

/** How the daemon proves itself to the ERP; the secret parts never reach a reason or a log. */
export type RestAuth =
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  /** A header of the ERP's own, e.g. `X-Api-Key: <value>`. */
  | { type: 'header'; header: string; value: string };

export const REST_METHODS = ['POST', 'PUT'] as const;
export type RestMethod = (typeof REST_METHODS)[number];

/**
 * Where one resource's records go. `url` is a template, absolute (`https://…`) or relative to
 * `baseUrl`, with the placeholders `{resource}`, `{_id}` and `{version}` (URL-encoded).
 */
export interface RestResourceTarget {
  url?: string;
  method?: RestMethod;
  /**
   * Where the resource's archival events go (the same placeholders); by default POST
   * `{resource}/{_id}/archived`, beside the record's own URL.
   */
  archived?: { url?: string; method?: RestMethod };
}

export interface RestAdapterOptions {
  /** The ERP's API root, e.g. `http://erp.local/api`. */
  baseUrl: string;
  auth?: RestAuth;
  /** Longest wait for the connection, the answer's headers and each pause in its body. */
  timeoutMs?: number;
  /**
   * Send archival events (`resources.<r>.archived`); off, an event is taken as handed over
   * without a call, as an ERP that never asked for them expects.
   */
  archivalEvents?: boolean;
  /** Per resource; a resource not listed uses the defaults below. */
  resources?: Partial<Record<ResourceName, RestResourceTarget>>;
}

export const DEFAULT_REST_TIMEOUT_MS = 30_000;
export const DEFAULT_REST_METHOD: RestMethod = 'POST';

/**
 * An archival event names its record and says what happened to it, as a sub-resource of the
 * record: an ERP routes it apart from record versions, and neither can be taken for the other.
 */
export const DEFAULT_ARCHIVAL_URL = '{resource}/{_id}/archived';

/** POST goes to the collection; PUT names the record, as REST APIs expect. */
export const DEFAULT_URL_TEMPLATES: Record<RestMethod, string> = {
  POST: '{resource}',
  PUT: '{resource}/{_id}',
};
