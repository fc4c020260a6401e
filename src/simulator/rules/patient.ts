import { randomUUID } from 'node:crypto';
import { mergeByKind, objectsIn, refuseTakenKey, type WriteRules } from './types.js';

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

export const patientRules: WriteRules = {
  create(ctx, body) {
    refuseTakenKey(ctx, 'patient', body.customerId, undefined);
    return { ...body, careGivers: mergeCareGivers([], body.careGivers, ctx.clock.now()) };
  },
  change(ctx, body, stored, kind) {
    const record = mergeByKind(body, stored, kind);
    refuseTakenKey(ctx, 'patient', record.customerId, stored._id);
    const careGivers = mergeCareGivers(stored.careGivers, body.careGivers, ctx.clock.now());
    return { ...record, careGivers };
  },
};
