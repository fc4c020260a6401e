import { randomUUID } from 'node:crypto';
import type { CallContext } from '../api/context.js';
import { conflict } from '../httpError.js';
import { mergeByKind, objectsIn, type WriteRules } from './types.js';

/**
 * Care givers of a patient write (spec document 2, Patient): an entry without `_id` gets one;
 * `toDelete: true` removes the entry; `archived: true` archives it; stored entries the request
 * does not mention stay as they are.
 */
export function mergeCareGivers(stored: unknown, incoming: unknown, now: Date): unknown[] {
  const result = objectsIn(stored);
  for (const entry of objectsIn(incoming)) {
    const { toDelete, ...fields } = entry;
    const index = result.findIndex((s) => fields._id !== undefined && s._id === fields._id);
    if (toDelete === true) {
      if (index >= 0) result.splice(index, 1);
      continue;
    }
    const merged = {
      ...(index >= 0 ? result[index] : {}),
      ...fields,
      _id: fields._id ?? randomUUID(),
      archived: fields.archived ?? result[index]?.archived ?? false,
      timestamp: now.toISOString(),
    };
    if (index >= 0) result[index] = merged;
    else result.push(merged);
  }
  return result;
}

function uniqueCustomerId(ctx: CallContext, value: unknown, ownId: unknown): void {
  if (typeof value !== 'string' || value === '') return;
  const others = ctx.store
    .findBy(ctx.caller.tenant, 'patient', 'customerId', value)
    .map((s) => s.record._id)
    .filter((id) => id !== ownId);
  if (others.length === 0) return;
  throw conflict(
    `a patient with customerId "${value}" already exists in this tenant; update it instead`,
    [`customerId: "${value}" is used by patient ${others.join(', ')}`],
    { existingIds: others },
  );
}

export const patientRules: WriteRules = {
  create(ctx, body) {
    uniqueCustomerId(ctx, body.customerId, undefined);
    return { ...body, careGivers: mergeCareGivers([], body.careGivers, ctx.clock.now()) };
  },
  change(ctx, body, stored, kind) {
    const record = mergeByKind(body, stored, kind);
    uniqueCustomerId(ctx, record.customerId, stored._id);
    const careGivers = mergeCareGivers(stored.careGivers, body.careGivers, ctx.clock.now());
    return { ...record, careGivers };
  },
};
