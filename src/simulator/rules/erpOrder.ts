import { badRequest, conflict } from '../httpError.js';
import { withPatientRegion } from './references.js';
import { asText, type WriteRules } from './types.js';

/** ERP orders are keyed by salesId, which must not exist yet on create. */
export const erpOrderRules: WriteRules = {
  create(ctx, body) {
    const salesId = asText(body.salesId);
    const existing = ctx.store.findBy(ctx.caller.tenant, 'erpOrder', 'salesId', salesId);
    if (existing.length > 0) {
      throw conflict(
        `an ERP order with salesId "${salesId}" already exists; send PUT /erpOrder/{salesId} instead`,
        [`salesId: "${salesId}" already exists (ERP order ${String(existing[0]?.record._id)})`],
        { existingIds: existing.map((e) => e.record._id) },
      );
    }
    return withPatientRegion(ctx, body);
  },
  change(ctx, body, stored) {
    if (body.salesId !== undefined && body.salesId !== stored.salesId) {
      throw badRequest('the salesId of an ERP order cannot change', [
        `salesId: the body says "${asText(body.salesId)}" but the path names "${asText(stored.salesId)}"`,
      ]);
    }
    return withPatientRegion(ctx, { ...body, salesId: stored.salesId });
  },
};
