import { z } from 'zod';
import { entitySchema, STAMP_FIELDS, type Contract } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import type { Handler, HandlerContext, Job } from '../../queue/types.js';
import type { PushBackKind } from '../descriptor.js';
import { answeredWith, nothingSent } from '../once/answers.js';
import { existingIdOf } from '../once/create.js';
import { upsertOnce, type Upserted } from '../once/createOrWrite.js';
import { first } from '../entityKeys.js';
import { relabel } from '../once/failures.js';
import { text } from '../inboxRules.js';
import { patientIdByCustomerId, patientsWithCustomerId } from '../patientReference.js';
import { requiredText, textOf, without } from '../payload.js';
import { madeThenChanged } from '../once/write.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

/** PUT where the variant has it (the client's updatePatient chooses the same), else PATCH. */
const updateOf = (contract: Contract): 'replace' | 'update' =>
  contract.find('patient', 'replace') ? 'replace' : 'update';

/**
 * PATCH merges on the platform. A PUT replaces the whole patient, so what the ERP does not send
 * (field nurse, doctor, care givers, ...) is taken from the platform's current record.
 */
async function update(context: HandlerContext, id: string, body: PlatformRecord) {
  if (updateOf(context.contract) === 'update') return context.client.updatePatient(id, body);
  const current = await context.client.getPatient(id);
  return context.client.updatePatient(id, { ...without(current, ...STAMP_FIELDS), ...body });
}

/**
 * On the retry of a create, the patient found by its customerId when the earlier try made it
 * and a platform user changed it since (madeThenChanged): nothing is written, so that change
 * stays; the pull hands the patient as it now is to the ERP.
 */
async function madeThenChangedPatient(
  job: Job,
  context: HandlerContext,
  id: string,
  body: PlatformRecord,
): Promise<boolean> {
  if (job.lastError === undefined) return false;
  if (!madeThenChanged(job, context, await context.client.getPatient(id), body)) return false;
  context.logger.info(
    { resource: 'patient', id, jobId: job.id },
    'an earlier try of this create made the patient and a platform user changed it since; not written again',
  );
  nothingSent(context, 'changed on the platform since');
  return true;
}

async function createOrUpdate(
  job: Job,
  context: HandlerContext,
  customerId: string,
  body: PlatformRecord,
  subject: string,
): Promise<Upserted | undefined> {
  try {
    return {
      answer: answeredWith(context, await context.client.createPatient(body)),
      updates: false,
    };
  } catch (error) {
    const lookup = () => patientsWithCustomerId(customerId, context);
    const existingId = await existingIdOf(error, subject, lookup, context);
    if (existingId === undefined) throw error;
    if (await madeThenChangedPatient(job, context, existingId, body)) return undefined;
    const answer = answeredWith(context, await update(context, existingId, body), true);
    return { answer, updates: true };
  }
}

/** A patient with the ERP's customerId: updated when the platform knows it, else created. */
const pushPatient: Handler = async (job, context) => {
  const customerId = requiredText(job, 'customerId');
  const subject = `patient customerId ${customerId}`;
  const body = without(job.payload, '_id');
  try {
    const given = textOf(job.payload, '_id');
    const known = given ?? (await patientIdByCustomerId(customerId, context));
    const found = given === undefined && known !== undefined;
    if (found && (await madeThenChangedPatient(job, context, known, body))) return undefined;
    return await upsertOnce(
      job,
      context,
      { subject, resource: 'patient', id: known, body },
      {
        create: () => createOrUpdate(job, context, customerId, body, subject),
        write: (id) => update(context, id, body),
      },
    );
  } catch (error) {
    throw relabel(error, subject);
  }
};

export const patient = {
  name: 'patient',
  inbox: { entity: entitySchema('patient'), minimum: z.looseObject({ customerId: text }) },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: (body) => `patient:${first(body, 'customerId')}`,
  supersedes: true,
  handler: pushPatient,
} as const satisfies PushBackKind;
