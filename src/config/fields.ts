import { validateDetailed } from 'node-cron';
import { z } from 'zod';
import { booleanFromText, nonEmpty, optionalFlag } from '../shared/configValues.js';

/**
 * Field types shared by the schema. Numbers and booleans also accept their text form, because a
 * value that came from `${VAR}` substitution is always a string (`port: ${HTTP_PORT:-9464}`).
 */
export function numberFromText(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())
    ? Number(value.trim())
    : value;
}

export function integer(min: number, defaultValue: number, max = Number.MAX_SAFE_INTEGER) {
  return z.preprocess(numberFromText, z.number().int().min(min).max(max)).default(defaultValue);
}

export function flag(defaultValue: boolean) {
  return z.preprocess(booleanFromText, z.boolean()).default(defaultValue);
}

export { nonEmpty, optionalFlag };

export const httpUrl = z.url({
  protocol: /^https?$/,
  error: (issue) =>
    issue.input === undefined
      ? undefined
      : `expected an http:// or https:// URL, got ${JSON.stringify(issue.input)}`,
});

/** A path on the platform such as `/postalCode`; `withId` requires the `{id}` placeholder. */
export function platformPath(defaultValue: string, withId = false) {
  return z
    .string()
    .refine((path) => path.startsWith('/'), 'must start with "/"')
    .refine((path) => !withId || path.includes('{id}'), 'must contain "{id}" where the id goes')
    .default(defaultValue);
}

/** The fields of a cron expression with their ranges, as node-cron reads them. */
const CRON_FIELDS = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 6 },
] as const;

/**
 * Steps node-cron accepts although they cannot mean what they say: it reads `*\/61` in the minute
 * field as "minute 0" (every hour), as it reads any step beyond the field's range as its first
 * value. A step must leave at least two values of the field (at most max - min), or the
 * schedule silently runs far less often than written.
 */
function stepsBeyondRange(expression: string): string[] {
  const fields = expression.trim().split(/\s+/);
  // Five fields have no seconds; nicknames (@hourly) have none of these fields.
  const ranges = fields.length === 5 ? CRON_FIELDS.slice(1) : CRON_FIELDS;
  if (fields.length !== ranges.length) return [];
  return fields.flatMap((field, i) => {
    const range = ranges[i];
    if (range === undefined) return [];
    const widest = range.max - range.min;
    return field.split(',').flatMap((part) => {
      const step = /\/(\d+)$/.exec(part)?.[1];
      if (step === undefined || Number(step) <= widest) return [];
      return [
        `${part} in the ${range.name} field steps past the field's range (${range.min}-${range.max}), so it would run only at ${range.name} ${/^\d+/.exec(part)?.[0] ?? range.min}; use a step of 1 to ${widest}`,
      ];
    });
  });
}

export const cronExpression = z.string().superRefine((expression, ctx) => {
  const result = validateDetailed(expression);
  const reasons = result.valid ? stepsBeyondRange(expression) : result.errors.map((e) => e.message);
  if (reasons.length === 0) return;
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(expression)} is not a valid cron expression (${reasons.join('; ')}); write five fields (six with seconds), e.g. "*/5 * * * *"`,
  });
});

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** True when the runtime knows `name` as an IANA time zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    // Intl's only way to say a zone is unknown: the answer, not a fault.
    return false;
  }
}

export const timeZoneName = z.string().superRefine((name, ctx) => {
  if (isTimeZone(name)) return;
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(name)} is not a time zone; give an IANA name such as "UTC" or "Europe/Berlin"`,
  });
});
