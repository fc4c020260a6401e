import type { BoundOperation } from '../../contract/index.js';
import { documentPdf, documentXml } from '../documents.js';
import { badRequest, notFound } from '../httpError.js';
import { present } from '../present.js';
import { attachmentFile } from '../seed/index.js';
import type { CallContext } from './context.js';
import { requirePathRecord } from './lookup.js';
import { jsonResponse, type SimResponse } from './response.js';

type Query = Readonly<Record<string, string>>;

/** GET /patient/customerMapping (C): the platform patient behind an ERP customer number. */
function customerMapping(ctx: CallContext, query: Query): SimResponse {
  const customerId = query.customerId ?? '';
  const patient = ctx.store.findBy(ctx.caller.tenant, 'patient', 'customerId', customerId)[0];
  if (!patient) throw notFound(`no patient with customerId "${customerId}" in this tenant`);
  const { _id, updatedAt } = patient.record;
  return jsonResponse(200, { _id, customerId, updatedAt });
}

async function documentFile(record: Record<string, unknown>, query: Query): Promise<SimResponse> {
  if (query.xml === 'true') {
    return { status: 200, contentType: 'application/xml', body: documentXml(record) };
  }
  return { status: 200, contentType: 'application/pdf', body: await documentPdf(record) };
}

/** The file bytes of an attachment: the uploaded data, or the seed's for seeded attachments. */
function download(ctx: CallContext, record: Record<string, unknown>): SimResponse {
  const file = ctx.store.getFile(ctx.caller.tenant, String(record._id)) ?? attachmentFile(record);
  return { status: 200, contentType: file.contentType, body: file.data };
}

/** GET of one record (and the variants' single-item reads that are not plain JSON). */
export async function handleRead(
  ctx: CallContext,
  operation: BoundOperation,
  id: string | undefined,
  query: Query,
): Promise<SimResponse> {
  if (operation.target === 'customerMapping') return customerMapping(ctx, query);
  if (id === undefined) throw badRequest('this path needs an id', ['id: missing in the path']);
  const stored = requirePathRecord(ctx, operation, id);
  if (operation.detail.response === 'pdfOrXml') return documentFile(stored.record, query);
  if (operation.detail.response === 'file') return download(ctx, stored.record);
  return jsonResponse(200, present(operation.resource, stored.record, 'item'));
}
