import type { Handler } from '../types.js';
import { about } from './failures.js';
import { textOf, without } from './payload.js';
import { withPatientId } from './patientReference.js';
import { remember } from './remember.js';

/** A patient note: PATCH /patientNote/{_id} when `_id` is given, else POST. */
export const pushPatientNote: Handler = async (job, context) => {
  const id = textOf(job.payload, '_id');
  const subject = id === undefined ? 'new patient note' : `patient note ${id}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: id === undefined,
  });
  const answer = await about(subject, () =>
    id === undefined
      ? context.client.createPatientNote(body)
      : context.client.patchPatientNote(id, body),
  );
  return remember(context, 'patientNote', answer, { body });
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
  return remember(context, 'integratedCare', answer, { body, shortAnswer: id === undefined });
};
