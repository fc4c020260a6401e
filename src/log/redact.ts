import { scrubText } from './scrubText.js';
import { REDACTED, isSensitiveKey } from './sensitiveKeys.js';

/**
 * Keys under which validation issues (zod and the like) carry the offending value; the value is
 * personal when the issue's `path` names a personal field.
 */
const issueValueKeys = new Set(['input', 'received', 'value']);

/**
 * Returns a copy of a JSON value with the values of sensitive keys replaced at any depth and
 * every string scrubbed. Empty values stay as they are: their absence is no personal data and
 * helps when a record is incomplete.
 */
export function redactJson(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secrets));
  if (value === null || typeof value !== 'object') return value;
  const aboutSensitiveField = pathNamesSensitiveField(value);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const hide = isSensitiveKey(key) || (aboutSensitiveField && issueValueKeys.has(key));
    copy[key] = hide && !isEmpty(item) ? REDACTED : redactJson(item, secrets);
  }
  return copy;
}

function pathNamesSensitiveField(value: object): boolean {
  const path: unknown = 'path' in value ? value.path : undefined;
  return (
    Array.isArray(path) &&
    path.some((segment: unknown) => typeof segment === 'string' && isSensitiveKey(segment))
  );
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

/**
 * Redacts one serialized log line. Lines are JSON, as pino writes them; should one not parse,
 * the text scrubber still removes `"key": value` pairs and secrets from it.
 */
export function redactLine(line: string, secrets: readonly string[]): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return scrubText(line, secrets);
  }
  const ending = line.endsWith('\n') ? '\n' : '';
  return JSON.stringify(redactJson(parsed, secrets)) + ending;
}
