import { createHash, randomUUID } from 'node:crypto';
import { CARE_PROPOSAL_STATUS, SERIES_STATUS_NOT_TRANSMITTED } from '../../contract/index.js';
import type { CallContext } from '../api/context.js';
import { patientRegion } from './references.js';
import { asText, objectsIn, type WriteRules } from './types.js';

/**
 * The standard care proposal of a therapy and therapy type. The platform derives it when a write
 * omits it; the simulator has no catalogue of proposals, so it derives a stable UUID-shaped id.
 */
export function standardCareProposalIdOf(
  tenant: string,
  therapyId: unknown,
  typeId: unknown,
): string {
  const hex = createHash('sha1')
    .update(`${tenant}:${asText(therapyId)}:${asText(typeId)}`)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** seriesData merged by `_id` with the stored entries; new entries get an `_id`. */
export function mergeSeriesData(stored: unknown, incoming: unknown, now: Date): unknown[] {
  const result = objectsIn(stored);
  for (const entry of objectsIn(incoming)) {
    const index = result.findIndex((s) => entry._id !== undefined && s._id === entry._id);
    const merged = {
      ...(index >= 0 ? result[index] : { archived: false }),
      ...entry,
      _id: entry._id ?? randomUUID(),
      timestamp: now.toISOString(),
    };
    if (index >= 0) result[index] = merged;
    else result.push(merged);
  }
  return result;
}

function derived(ctx: CallContext, record: Record<string, unknown>): Record<string, unknown> {
  return {
    ...record,
    regionId: patientRegion(ctx, record.patientId),
    standardCareProposalId:
      record.standardCareProposalId ??
      standardCareProposalIdOf(ctx.caller.tenant, record.therapyId, record.therapyTypeId),
  };
}

export const integratedCareRules: WriteRules = {
  create(ctx, body) {
    const now = ctx.clock.now();
    return derived(ctx, {
      status: CARE_PROPOSAL_STATUS.Active,
      seriesStatus: SERIES_STATUS_NOT_TRANSMITTED,
      ...body,
      seriesData: mergeSeriesData([], body.seriesData, now),
    });
  },
  change(ctx, body, stored) {
    const seriesData =
      body.seriesData === undefined
        ? stored.seriesData
        : mergeSeriesData(stored.seriesData, body.seriesData, ctx.clock.now());
    return derived(ctx, { ...stored, ...body, seriesData });
  },
};
