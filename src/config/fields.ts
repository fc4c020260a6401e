import { validateDetailed } from 'node-cron';
import { z } from 'zod';

/**
 * Field types shared by the schema. Numbers and booleans also accept their text form, because a
 * value that came from `${VAR}` substitution is always a string (`port: ${HTTP_PORT:-9464}`).
 */
function numberFromText(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())
    ? Number(value.trim())
    : value;
}

function booleanFromText(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

export function integer(min: number, defaultValue: number, max = Number.MAX_SAFE_INTEGER) {
  return z.preprocess(numberFromText, z.number().int().min(min).max(max)).default(defaultValue);
}

export function flag(defaultValue: boolean) {
  return z.preprocess(booleanFromText, z.boolean()).default(defaultValue);
}

export const optionalFlag = z.preprocess(booleanFromText, z.boolean()).optional();

export const nonEmpty = z.string().min(1, 'must not be empty');

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

export const cronExpression = z.string().superRefine((expression, ctx) => {
  const result = validateDetailed(expression);
  if (result.valid) return;
  const reasons = result.errors.map((e) => e.message).join('; ');
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(expression)} is not a valid cron expression (${reasons}); write five fields (six with seconds), e.g. "*/5 * * * *"`,
  });
});

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** True when the runtime knows `name` as an IANA time zone (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
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
