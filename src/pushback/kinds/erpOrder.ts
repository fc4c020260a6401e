import { z } from 'zod';
import { bodyProblems } from '../../contract/index.js';
import { entitySchema } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import type { Handler, HandlerContext } from '../../queue/types.js';
import { PermanentError } from '../../shared/errors.js';
import { findMirrorBy, type Store } from '../../store/index.js';
import type { PushBackKind } from '../descriptor.js';
import { first } from '../entityKeys.js';
import { refusedWith, relabel } from '../once/failures.js';
import { looseList, PATIENT_CUSTOMER_ID, patientReference, text } from '../inboxRules.js';
import { withPatientId } from '../patientReference.js';
import { requiredText, without } from '../payload.js';
import { remember } from '../once/remember.js';
import { writeOnce } from '../once/write.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

const mirrored = (salesId: string, store: Store): boolean =>
  findMirrorBy(store, 'erpOrder', 'salesId', salesId).length > 0;

/** Whether the platform already holds an ERP order with `salesId`: mirror, then GET where offered. */
async function exists(salesId: string, context: HandlerContext): Promise<boolean> {
  if (mirrored(salesId, context.store)) return true;
  if (!context.contract.find('erpOrder', 'get')) return false;
  try {
    await context.client.getErpOrder(salesId);
    return true;
  } catch (error) {
    if (refusedWith(error, 404)) return false;
    throw error;
  }
}

/** The POST's refusal of a salesId that exists (the only way to learn it where there is no GET). */
function duplicateSalesId(error: unknown): boolean {
  if (refusedWith(error, 409)) return true;
  const excerpt = refusedWith(error, 400) ? (error.bodyExcerpt ?? '') : '';
  return excerpt.includes('salesId') && /already exist/i.test(excerpt);
}

async function createOrReplace(
  salesId: string,
  body: PlatformRecord,
  context: HandlerContext,
): Promise<PlatformRecord> {
  if (await exists(salesId, context)) return context.client.replaceErpOrder(salesId, body);
  try {
    return await context.client.createErpOrder(body);
  } catch (error) {
    if (!duplicateSalesId(error)) throw error;
    context.logger.info({ resource: 'erpOrder', salesId }, 'salesId exists; sent as PUT');
    return context.client.replaceErpOrder(salesId, body);
  }
}

/** The create's required data, checked before the GET that looks for the salesId. */
function checkBody(body: PlatformRecord, context: HandlerContext, subject: string): void {
  const problems = bodyProblems(context.contract.find('erpOrder', 'create')?.detail.body, body);
  if (problems.length === 0) return;
  const hint = 'complete the ERP order in the ERP and send it again';
  throw new PermanentError(`${subject}: ${problems.join('; ')}; not sent. ${hint}`, {
    resource: 'erpOrder',
    id: String(body.salesId),
    code: 'BAD_JOB',
    hint,
  });
}

/** Delivery feedback: POST, or PUT /erpOrder/{salesId} when the salesId exists already. */
const pushErpOrder: Handler = async (job, context) => {
  const salesId = requiredText(job, 'salesId');
  const subject = `ERP order salesId ${salesId}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: true,
  });
  checkBody(body, context, subject);
  try {
    // Read by its salesId (variants B and C) before a retry: a PUT or POST that applied is done.
    const answer = await writeOnce(job, context, { resource: 'erpOrder', id: salesId, body }, () =>
      createOrReplace(salesId, body, context),
    );
    return remember(context, 'erpOrder', answer, { body });
  } catch (error) {
    throw relabel(error, subject);
  }
};

export const erpOrder = {
  name: 'erpOrder',
  inbox: {
    entity: entitySchema('erpOrder'),
    minimum: z.looseObject({
      salesId: text,
      outboundDate: text,
      deliveryAddress: z.looseObject({}),
      erpOrderedArticleLines: looseList('line'),
    }),
    rules: patientReference,
    erpFields: PATIENT_CUSTOMER_ID,
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: (body) => `erpOrder:${first(body, 'salesId')}`,
  supersedes: true,
  handler: pushErpOrder,
} as const satisfies PushBackKind;
