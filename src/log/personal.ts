import { maskAnswer } from './answers.js';
import { scrubText } from './scrubText.js';
import { REDACTED, isSensitiveKey } from './sensitiveKeys.js';

/**
 * Whether an output masks personal values (the default) or shows them: `--show-personal` on
 * the commands that print them, always kept as an operator action (who, when, from where).
 */
export type PersonalValues = 'masked' | 'shown';

/**
 * Fields whose text is the other side's own words about a record: a platform error body's
 * excerpt, an ERP's or the platform's answer. Masked by their structure (maskAnswer).
 */
const ANSWER_FIELDS: ReadonlySet<string> = new Set(['bodyExcerpt', 'answer']);

/**
 * Keys under which validation issues (zod and the like) carry the offending value; the value is
 * personal when the issue's `path` names a personal field.
 */
const ISSUE_VALUE_KEYS: ReadonlySet<string> = new Set(['input', 'received', 'value']);

/**
 * The one masking of personal values, for every output that can carry platform or ERP text:
 * log lines, `queue show`, `trace`, `mapping preview`, `inbox check`, `status`, alerts (and the
 * console, which shows what the CLI shows). Returns a copy of `value` in which
 *
 * - the value of every personal or credential field (src/contract/personalFields.ts, `apiKey`,
 *   `token`, …) is `[redacted]`, at any depth; empty values stay (their absence is no data);
 * - the other side's words (ANSWER_FIELDS) keep only their structure (maskAnswer);
 * - every other text has `known` values replaced wherever they stand (the personal values of
 *   the records the output is about, and the configured secrets that cannot be part of words),
 *   and `"key": value` / `key=value` pairs of personal and credential keys masked (scrubText).
 *
 * Ids, keys, statuses, stamps and numbers stay: they are what an operator searches by.
 */
export function maskPersonal<T>(value: T, known: readonly string[] = []): T {
  return masked(value, known) as T;
}

function masked(value: unknown, known: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, known);
  if (Array.isArray(value)) return value.map((item: unknown) => masked(item, known));
  if (value === null || typeof value !== 'object') return value;
  const aboutSensitiveField = pathNamesSensitiveField(value);
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const hide = isSensitiveKey(key) || (aboutSensitiveField && ISSUE_VALUE_KEYS.has(key));
    if (hide && !isEmpty(item)) copy[key] = REDACTED;
    else if (ANSWER_FIELDS.has(key) && typeof item === 'string') {
      copy[key] = scrubText(maskAnswer(item), known);
    } else copy[key] = masked(item, known);
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
