import {
  changesStatus,
  isStatusControlled,
  type BoundOperation,
  type ResourceName,
} from '../../contract/index.js';
import { badRequest } from '../httpError.js';
import { present } from '../present.js';
import { articleRules } from '../rules/article.js';
import { attachmentRules } from '../rules/attachment.js';
import { deviceRules } from '../rules/device.js';
import { erpOrderRules } from '../rules/erpOrder.js';
import { integratedCareRules } from '../rules/integratedCare.js';
import { orderRules } from '../rules/orders.js';
import { patientRules } from '../rules/patient.js';
import { patientNoteRules } from '../rules/patientNote.js';
import { productGroupRules } from '../rules/productGroup.js';
import { mergeByKind, type WriteRules } from '../rules/types.js';
import { stampChanged, stampCreated } from '../stamp.js';
import type { CallContext } from './context.js';
import { requirePathRecord } from './lookup.js';
import { jsonResponse, type SimResponse } from './response.js';
import { validBody } from './validate.js';

const RULES: Partial<Record<ResourceName, WriteRules>> = {
  article: articleRules,
  attachment: attachmentRules,
  device: deviceRules,
  erpOrder: erpOrderRules,
  integratedCare: integratedCareRules,
  singleOrder: orderRules,
  directOrder: orderRules,
  patient: patientRules,
  patientNote: patientNoteRules,
  productGroup: productGroupRules,
};

function answer(
  operation: BoundOperation,
  status: number,
  record: Record<string, unknown>,
): SimResponse {
  switch (operation.detail.response) {
    case 'idAndUpdated':
      return jsonResponse(status, { _id: record._id, updated: record.timestamp });
    case 'deviceAck':
      return jsonResponse(status, {
        _id: record._id,
        serialNumber: record.serialNumber,
        updated: record.timestamp,
      });
    default:
      return jsonResponse(status, present(operation.resource, record, 'item'));
  }
}

function create(ctx: CallContext, operation: BoundOperation, body: Record<string, unknown>) {
  const rules = RULES[operation.resource] ?? {};
  const shaped = rules.create?.(ctx, body) ?? body;
  const record = stampCreated(shaped, ctx.clock.now(), ctx.caller.client, rules.newId?.());
  const acknowledged = isStatusControlled(operation.resource);
  ctx.store.put(ctx.caller.tenant, operation.resource, record, {
    changedByClient: ctx.caller.client,
    acknowledged,
  });
  const file = rules.file?.(body);
  if (file) ctx.store.putFile(ctx.caller.tenant, String(record._id), file.contentType, file.data);
  return answer(operation, 201, record);
}

function change(
  ctx: CallContext,
  operation: BoundOperation,
  id: string,
  body: Record<string, unknown>,
): SimResponse {
  const kind = operation.kind === 'update' ? 'update' : 'replace';
  const stored = requirePathRecord(ctx, operation, id);
  const rules = RULES[operation.resource] ?? {};
  const shaped =
    rules.change?.(ctx, body, stored.record, kind) ?? mergeByKind(body, stored.record, kind);
  const record = stampChanged(shaped, stored.record, ctx.clock.now(), ctx.caller.client);
  ctx.store.put(ctx.caller.tenant, operation.resource, record, {
    changedByClient: ctx.caller.client,
    // Rule 3: a status change (not any PATCH) takes an order out of `status=created`.
    acknowledged: stored.acknowledged || changesStatus(operation.resource, body, stored.record),
  });
  return answer(operation, 200, record);
}

/** POST, PUT and PATCH of the API: the contract's rules, then the resource's own. */
export function handleWrite(
  ctx: CallContext,
  operation: BoundOperation,
  pathId: string | undefined,
  query: Readonly<Record<string, string>>,
  rawBody: unknown,
): SimResponse {
  if (operation.kind === 'create') {
    RULES[operation.resource]?.authorize?.(ctx);
    return create(ctx, operation, validBody(operation, rawBody));
  }
  const idParam = operation.detail.idQueryParam;
  const id = pathId ?? (idParam === undefined ? undefined : query[idParam]);
  if (id === undefined || id === '') {
    throw badRequest(`${operation.method} ${operation.pathTemplate} needs an id`, [
      `id: give the ${operation.resource} id in the path${idParam ? ` or as query parameter ${idParam}` : ''}`,
    ]);
  }
  return change(ctx, operation, id, validBody(operation, rawBody));
}
