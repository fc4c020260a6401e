import { PermanentError } from '../shared/errors.js';
import type { Job } from '../queue/types.js';

export type Body = Record<string, unknown>;

/** A non-empty text field of a job's payload, or undefined. */
export function textOf(body: Body, field: string): string | undefined {
  const value = body[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function isObject(value: unknown): value is Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A field the job cannot do without; its absence is a fault of whoever queued the job. */
export function requiredText(job: Job, field: string): string {
  const value = textOf(job.payload, field);
  if (value !== undefined) return value;
  throw new PermanentError(
    `${job.kind} job ${job.id} (${job.entityKey}) has no ${field} in its payload; drop it and send the message again with ${field}`,
    { code: 'BAD_JOB', hint: `the payload needs ${field}` },
  );
}

/** `body` without `fields`: our own keys (patientCustomerId) and what a write must not carry. */
export function without(body: Body, ...fields: string[]): Body {
  return Object.fromEntries(Object.entries(body).filter(([key]) => !fields.includes(key)));
}
