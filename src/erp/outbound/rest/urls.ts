import type { ResourceName } from '../../../contract/index.js';
import {
  DEFAULT_ARCHIVAL_URL,
  DEFAULT_REST_METHOD,
  DEFAULT_URL_TEMPLATES,
  type RestAdapterOptions,
  type RestMethod,
} from './options.js';

/** Where and how one resource's records are sent. */
export interface RestTarget {
  method: RestMethod;
  template: string;
}

export interface UrlValues {
  resource: string;
  _id: string;
  version: string;
}

const PLACEHOLDER = /\{([^{}]*)\}/g;
const KNOWN_PLACEHOLDERS: ReadonlySet<string> = new Set(['resource', '_id', 'version']);
const HAS_SCHEME = /^[a-z][a-z\d+.-]*:/i;

export function targetOf(options: RestAdapterOptions, resource: ResourceName): RestTarget {
  const configured = options.resources?.[resource];
  const method = configured?.method ?? DEFAULT_REST_METHOD;
  return { method, template: configured?.url ?? DEFAULT_URL_TEMPLATES[method] };
}

/** Where and how one resource's archival events are sent (`resources.<resource>.archived`). */
export function archivalTargetOf(options: RestAdapterOptions, resource: ResourceName): RestTarget {
  const configured = options.resources?.[resource]?.archived;
  return {
    method: configured?.method ?? DEFAULT_REST_METHOD,
    template: configured?.url ?? DEFAULT_ARCHIVAL_URL,
  };
}

export function unknownPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1] ?? '')
    .filter((name) => !KNOWN_PLACEHOLDERS.has(name));
}

/**
 * The request URL: an absolute template stands alone, a relative one is appended to `baseUrl`
 * (one slash between them, whatever either side brings). Every value is URL-encoded, so an id
 * with `/` or `?` stays one path segment.
 */
export function expandUrl(baseUrl: string, template: string, values: UrlValues): URL {
  const filled = template.replace(PLACEHOLDER, (whole, name: string) =>
    name === 'resource' || name === '_id' || name === 'version'
      ? encodeURIComponent(values[name])
      : whole,
  );
  if (HAS_SCHEME.test(filled)) return new URL(filled);
  return new URL(`${baseUrl.replace(/\/+$/, '')}/${filled.replace(/^\/+/, '')}`);
}

/** The URL as it may appear in a reason: no user info, no query (either may carry a secret). */
export function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
