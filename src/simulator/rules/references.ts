import type { CallContext } from '../api/context.js';
import { requireReferenced } from '../api/lookup.js';

/** The `regionId` of the patient a record names: taken from the patient (spec document 2). */
export function patientRegion(ctx: CallContext, patientId: unknown, field = 'patientId'): unknown {
  return requireReferenced(ctx, 'patient', field, patientId).regionId;
}

export function withPatientRegion(
  ctx: CallContext,
  record: Record<string, unknown>,
): Record<string, unknown> {
  return { ...record, regionId: patientRegion(ctx, record.patientId) };
}
