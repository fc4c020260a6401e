import { recordVersionOf } from './schemas/identity.js';
import type { ResourceName } from './resources.js';

/**
 * The fields the platform sets on every change of a record (spec document 2, "entity base
 * fields"), and `updated`, the stamp of a short answer (`{_id, updated}`). They say who changed
 * a record and when, never what: a write must not send them back, and what a change is never
 * compares them.
 */
export const STAMP_FIELDS: readonly string[] = [
  '_id',
  'timestamp',
  'createdAt',
  'createdBy',
  'updatedAt',
  'updatedBy',
  'updated',
];

/** Stamps inside nested entries (care givers, series data), renewed on every write. */
export const NESTED_STAMP_FIELDS: readonly string[] = ['timestamp', 'updatedAt', 'updatedBy'];

/**
 * The version a write's answer makes: its stamp read as a pulled record's is
 * (`recordVersionOf`), or a short answer's `updated`; undefined when it carries neither.
 */
export function answerStamp(
  resource: ResourceName,
  answer: Readonly<Record<string, unknown>>,
): string | undefined {
  const pulled = recordVersionOf(resource, answer)?.version;
  if (pulled !== undefined) return pulled;
  return typeof answer.updated === 'string' && answer.updated !== '' ? answer.updated : undefined;
}
