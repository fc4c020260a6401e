import type { PlatformRecord } from '../../platform/index.js';
import type { Handler, HandlerContext, Job } from '../types.js';
import { about } from './failures.js';
import { textOf, without } from './payload.js';
import { withPatientId } from './patientReference.js';
import { remember } from './remember.js';

/**
 * A note this job created on an earlier try that did not get to finish: same patient, same
 * text, same status. Only a job tried before looks, so a note sent twice on purpose stays two.
 */
async function noteSentBefore(
  job: Job,
  context: HandlerContext,
  body: PlatformRecord,
): Promise<PlatformRecord | undefined> {
  if (job.attempts === 0) return undefined;
  const patientId = String(body.patientId);
  for await (const note of context.client.listPatientNotes({ patientId })) {
    const sameStatus = body.status === undefined || note.status === body.status;
    if (note.noteText === body.noteText && sameStatus) return note;
  }
  return undefined;
}

/** A patient note: PATCH /patientNote/{_id} when `_id` is given, else POST. */
export const pushPatientNote: Handler = async (job, context) => {
  const id = textOf(job.payload, '_id');
  const subject = id === undefined ? 'new patient note' : `patient note ${id}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: id === undefined,
  });
  if (id !== undefined) {
    remember(
      context,
      'patientNote',
      await about(subject, () => context.client.patchPatientNote(id, body)),
    );
    return;
  }
  const answer = await about(
    `${subject} for patient ${String(body.patientId)}`,
    async () =>
      (await noteSentBefore(job, context, body)) ?? context.client.createPatientNote(body),
  );
  remember(context, 'patientNote', answer);
};

/** A care arrangement: PATCH when `_id` is given, else POST (variants A and B). */
export const pushIntegratedCare: Handler = async (job, context) => {
  const id = textOf(job.payload, '_id');
  const subject = id === undefined ? 'new integrated care' : `integrated care ${id}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: id === undefined,
  });
  const answer = await about(subject, () =>
    id === undefined
      ? context.client.createIntegratedCare(body)
      : context.client.patchIntegratedCare(id, body),
  );
  remember(context, 'integratedCare', answer, body);
};
