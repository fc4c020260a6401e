import type { BoundOperation, ResourceName } from '../../contract/index.js';
import { badRequest, notFound } from '../httpError.js';
import type { StoredRecord } from '../store/recordStore.js';
import type { CallContext } from './context.js';

/** Finds the record an item path names, reading the id kind (`_id`, salesId, ...) from the contract. */
export function findByPathId(
  ctx: CallContext,
  operation: BoundOperation,
  id: string,
): StoredRecord | undefined {
  const { store, caller } = ctx;
  const { resource } = operation;
  switch (operation.detail.idKind) {
    case 'customerNumber':
      return store.findBy(caller.tenant, resource, 'customerNumber', id)[0];
    case 'salesId':
      return store.findBy(caller.tenant, resource, 'salesId', id)[0];
    case '_idOrCustomerNumber':
      return (
        store.get(caller.tenant, resource, id) ??
        store.findBy(caller.tenant, resource, 'customerNumber', id)[0]
      );
    default:
      return store.get(caller.tenant, resource, id);
  }
}

export function requirePathRecord(
  ctx: CallContext,
  operation: BoundOperation,
  id: string,
): StoredRecord {
  const found = findByPathId(ctx, operation, id);
  if (!found) {
    const kind = operation.detail.idKind ?? '_id';
    throw notFound(`no ${operation.resource} with ${kind} "${id}" in this tenant`);
  }
  return found;
}

/** A record another one refers to (patientId, parentId), or a 400 naming the field. */
export function requireReferenced(
  ctx: CallContext,
  resource: ResourceName,
  field: string,
  id: unknown,
): Record<string, unknown> {
  const found = typeof id === 'string' ? ctx.store.get(ctx.caller.tenant, resource, id) : undefined;
  if (!found) {
    throw badRequest(`${field} does not name a ${resource} of this tenant`, [
      `${field}: no ${resource} with _id "${String(id)}"`,
    ]);
  }
  return found.record;
}
