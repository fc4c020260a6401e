import { SetupError } from '../../../shared/errors.js';
import {
  REST_METHODS,
  type RestAdapterOptions,
  type RestAuth,
  type RestResourceTarget,
} from './options.js';
import { expandUrl, unknownPlaceholders } from './urls.js';

const HEADER_NAME = /^[!#$%&'*+.^_`|~\w-]+$/;
const OWN_HEADERS = new Set(['content-type', 'idempotency-key', 'content-length', 'host']);
const SAMPLE = { resource: 'resource', _id: 'id', version: 'version' };

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    // Not a URL at all: the caller's problem line names the key and what it holds.
    return false;
  }
}

function makesHttpUrl(baseUrl: string, template: string): boolean {
  try {
    return isHttpUrl(expandUrl(baseUrl, template, SAMPLE).href);
  } catch {
    // No URL can be made: the caller's problem line names the template.
    return false;
  }
}

function authProblems(auth: RestAuth): string[] {
  const at = 'erp.rest.auth';
  switch (auth.type) {
    case 'bearer':
      return auth.token === '' ? [`${at}.token: must not be empty`] : [];
    case 'basic':
      return auth.username === '' ? [`${at}.username: must not be empty`] : [];
    case 'header': {
      const name = auth.header.toLowerCase();
      if (!HEADER_NAME.test(name)) return [`${at}.header: "${auth.header}" is not a header name`];
      if (OWN_HEADERS.has(name))
        return [`${at}.header: ${auth.header} is set by the adapter itself`];
      return auth.value === '' ? [`${at}.value: must not be empty`] : [];
    }
  }
}

/** Every configured destination: a resource's records, and its archival events. */
function destinations(options: RestAdapterOptions): [string, RestResourceTarget][] {
  return Object.entries(options.resources ?? {}).flatMap(([resource, target]) => {
    const at = `erp.rest.resources.${resource}`;
    const own: [string, RestResourceTarget] = [at, target];
    return target.archived === undefined ? [own] : [own, [`${at}.archived`, target.archived]];
  });
}

function targetProblems(options: RestAdapterOptions): string[] {
  const problems: string[] = [];
  for (const [at, target] of destinations(options)) {
    if (target.method !== undefined && !REST_METHODS.includes(target.method)) {
      problems.push(
        `${at}.method: ${String(target.method)} is not one of ${REST_METHODS.join(', ')}`,
      );
    }
    if (target.url === undefined) continue;
    const unknown = unknownPlaceholders(target.url);
    if (unknown.length > 0) {
      problems.push(
        `${at}.url: unknown placeholder ${unknown.map((n) => `{${n}}`).join(', ')}; use {resource}, {_id}, {version}`,
      );
    } else if (isHttpUrl(options.baseUrl) && !makesHttpUrl(options.baseUrl, target.url)) {
      problems.push(`${at}.url: ${target.url} does not make an http:// or https:// URL`);
    }
  }
  return problems;
}

/** Every mistake in the options at once, by configuration path, before anything is sent. */
export function checkRestOptions(options: RestAdapterOptions): void {
  const problems = [
    ...(isHttpUrl(options.baseUrl)
      ? []
      : [`erp.rest.baseUrl: expected an http:// or https:// URL, got "${options.baseUrl}"`]),
    ...(options.auth === undefined ? [] : authProblems(options.auth)),
    ...(options.timeoutMs === undefined ||
    (Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)
      ? []
      : [`erp.rest.timeoutMs: expected a whole number of milliseconds above 0`]),
    ...targetProblems(options),
  ];
  if (problems.length > 0) {
    throw new SetupError(`erp.rest is not usable: ${problems.join('; ')}`, problems, {
      hint: 'correct these keys in the configuration file and start again',
    });
  }
}
