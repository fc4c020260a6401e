import { refusedWith, notKnown } from './once/failures.js';
import { PermanentError } from '../shared/errors.js';
import { findMirrorBy } from '../store/index.js';
import type { HandlerContext, Job } from '../queue/types.js';
import { textOf, type Body } from './payload.js';

/** The platform `_id` of the patient the ERP knows by `customerId`, or undefined. */
export async function patientIdByCustomerId(
  customerId: string,
  context: HandlerContext,
): Promise<string | undefined> {
  const mirrored = findMirrorBy(context.store, 'patient', 'customerId', customerId)[0];
  if (mirrored) return mirrored.id;
  if (!context.contract.find('patientCustomerMapping', 'get')) return undefined;
  try {
    const mapping = await context.client.getPatientCustomerMapping(customerId);
    return typeof mapping._id === 'string' && mapping._id !== '' ? mapping._id : undefined;
  } catch (error) {
    if (refusedWith(error, 404)) return undefined;
    throw error;
  }
}

/**
 * Every platform patient with `customerId`, after a create was refused without saying why: the
 * mirror or the customer mapping first, else the whole patient list (the spec shows no filter
 * on it), which is slow but rare.
 */
export async function patientsWithCustomerId(
  customerId: string,
  context: HandlerContext,
): Promise<string[]> {
  const known = await patientIdByCustomerId(customerId, context);
  if (known !== undefined) return [known];
  const ids: string[] = [];
  for await (const patient of context.client.listPatients()) {
    if (patient.customerId === customerId && typeof patient._id === 'string') ids.push(patient._id);
  }
  return ids;
}

/**
 * The patient a message names: `patientId`, or the ERP's `patientCustomerId` resolved through
 * the mirror (and, where the platform offers it, its customer mapping).
 */
export async function resolvePatientId(
  job: Job,
  body: Body,
  context: HandlerContext,
  subject: string,
): Promise<string> {
  const patientId = textOf(body, 'patientId');
  if (patientId !== undefined) return patientId;
  const customerId = textOf(body, 'patientCustomerId');
  if (customerId === undefined) {
    throw new PermanentError(`${subject}: names no patient; send patientId or patientCustomerId`, {
      code: 'BAD_JOB',
      resource: 'patient',
    });
  }
  const found = await patientIdByCustomerId(customerId, context);
  if (found !== undefined) return found;
  throw notKnown(
    job,
    `${subject}: no patient with customerId ${customerId} is known`,
    'send the patient (inbox kind patient) first, or give the platform patientId',
    { resource: 'patient', id: customerId },
  );
}

/**
 * `body` with its patient as the platform knows it: `patientCustomerId` resolved into
 * `patientId` and dropped. A change that names no patient keeps none.
 */
export async function withPatientId(
  job: Job,
  body: Body,
  context: HandlerContext,
  subject: string,
  options: { required: boolean },
): Promise<Body> {
  const rest = Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'patientCustomerId'));
  const named = textOf(body, 'patientId') ?? textOf(body, 'patientCustomerId');
  if (named === undefined && !options.required) return rest;
  return { ...rest, patientId: await resolvePatientId(job, body, context, subject) };
}
