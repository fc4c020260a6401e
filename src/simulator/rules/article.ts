import { randomUUID } from 'node:crypto';
import { PRESCRIPTION_TYPE, PRESCRIPTION_TYPE_STORED_AS_DRUG } from '../../contract/index.js';
import type { CallContext } from '../api/context.js';
import { badRequest } from '../httpError.js';
import { asText, mergeByKind, objectsIn, refuseTakenKey, type WriteRules } from './types.js';

function sameUnit(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return (
    a.quantity === b.quantity &&
    asText(a.unit) === asText(b.unit) &&
    asText(a.pcn) === asText(b.pcn)
  );
}

/**
 * Packaging units of a write, merged with the stored ones (spec document 2, PUT /article):
 * a unit matching on quantity, unit and pcn keeps its `_id`; a stored unit the request leaves
 * out stays, archived; a new unit gets a generated `_id`.
 */
export function mergePackagingUnits(stored: unknown, incoming: unknown): unknown[] {
  const remaining = objectsIn(stored);
  const merged: unknown[] = [];
  for (const unit of objectsIn(incoming)) {
    const index = remaining.findIndex((s) => sameUnit(s, unit));
    const match = index >= 0 ? remaining.splice(index, 1)[0] : undefined;
    merged.push({ ...unit, _id: match?._id ?? randomUUID(), archived: unit.archived ?? false });
  }
  return [...merged, ...remaining.map((unit) => ({ ...unit, archived: true }))];
}

/** A client may send prescriptionType 6; the platform stores 0 (Drug) without complaint. */
function storedPrescriptionType(record: Record<string, unknown>): Record<string, unknown> {
  return record.prescriptionType === PRESCRIPTION_TYPE_STORED_AS_DRUG
    ? { ...record, prescriptionType: PRESCRIPTION_TYPE.Drug }
    : record;
}

/**
 * Variant C names the article by its customerNumber in the PUT path: that is the article's key,
 * so the record keeps it whether the body repeats it or leaves it out; a body naming another one
 * is refused rather than renaming the article.
 */
function keyedByPath(
  ctx: CallContext,
  body: Record<string, unknown>,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  if (ctx.contract.find('article', 'replace')?.detail.idKind !== 'customerNumber') return body;
  if (body.customerNumber !== undefined && body.customerNumber !== stored.customerNumber) {
    throw badRequest('the customerNumber of the path and the body differ', [
      `customerNumber: the body says "${asText(body.customerNumber)}" but the path names "${asText(stored.customerNumber)}"`,
    ]);
  }
  return { ...body, customerNumber: stored.customerNumber };
}

export const articleRules: WriteRules = {
  create(ctx, body) {
    refuseTakenKey(ctx, 'article', body.customerNumber, undefined);
    return storedPrescriptionType({
      ...body,
      therapyIds: body.therapyIds ?? [],
      packagingUnits: mergePackagingUnits([], body.packagingUnits),
    });
  },
  change(ctx, body, stored, kind) {
    const record = mergeByKind(
      kind === 'replace' ? keyedByPath(ctx, body, stored) : body,
      stored,
      kind,
    );
    refuseTakenKey(ctx, 'article', record.customerNumber, stored._id);
    return storedPrescriptionType({
      ...record,
      therapyIds: body.therapyIds ?? stored.therapyIds ?? [],
      packagingUnits:
        body.packagingUnits === undefined
          ? stored.packagingUnits
          : mergePackagingUnits(stored.packagingUnits, body.packagingUnits),
    });
  },
};
