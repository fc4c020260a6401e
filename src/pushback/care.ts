import type { Handler, HandlerContext, Job } from '../queue/types.js';
import { createOnce, type NaturalKeyLookup } from './duplicates.js';
import { about } from './failures.js';
import { textOf, without, type Body } from './payload.js';
import { withPatientId } from './patientReference.js';
import { remember } from './remember.js';
import { changedSince, changedSinceQueued, writeOnce } from './writeOnce.js';

/**
 * A patient note: PATCH /patientNote/{_id} when `_id` is given, else POST. A lost answer to the
 * POST is not tried again: the only list of notes leaves our own writes out (spec document 1,
 * rule 2), so not finding the note there would prove nothing.
 */
export const pushPatientNote: Handler = async (job, context) => {
  const id = textOf(job.payload, '_id');
  const subject = id === undefined ? 'new patient note' : `patient note ${id}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: id === undefined,
  });
  const answer = await about(subject, () =>
    id === undefined
      ? createOnce(job, context, { subject, resource: 'patientNote', body }, () =>
          context.client.createPatientNote(body),
        )
      : writeOnce(job, context, { resource: 'patientNote', id, body }, () =>
          context.client.patchPatientNote(id, body),
        ),
  );
  return remember(context, 'patientNote', answer, { body });
};

/** The fields that tell one care arrangement of a patient from another, where the job sends them. */
const CARE_KEY = ['patientId', 'therapyId', 'therapyTypeId', 'isInitialCare', 'salesId'];

/**
 * Care arrangements of the job's patient and therapy created since the job was queued: what an
 * earlier try may have made. The status lists show our own writes too (spec document 1, rule 3:
 * control is by status change), so finding none means the try made none.
 */
function careMadeSince(job: Job, body: Body, context: HandlerContext): NaturalKeyLookup {
  return async () => {
    const since = changedSince(job, context).getTime();
    const sameKey = (care: Body) =>
      CARE_KEY.every((field) => body[field] === undefined || care[field] === body[field]);
    const madeSince = (care: Body) =>
      typeof care.createdAt !== 'string' || Date.parse(care.createdAt) >= since;
    const ids = new Set<string>();
    for await (const care of changedSinceQueued(job, context, 'integratedCare')) {
      if (typeof care._id === 'string' && sameKey(care) && madeSince(care)) ids.add(care._id);
    }
    return [...ids];
  };
}

/** A care arrangement: PATCH when `_id` is given, else POST (variants A and B). */
export const pushIntegratedCare: Handler = async (job, context) => {
  const id = textOf(job.payload, '_id');
  const subject = id === undefined ? 'new integrated care' : `integrated care ${id}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: id === undefined,
  });
  const { client } = context;
  const answer = await about(subject, () =>
    id === undefined
      ? createOnce(
          job,
          context,
          { subject, resource: 'integratedCare', body },
          () => client.createIntegratedCare(body),
          {
            resource: 'integratedCare',
            find: careMadeSince(job, body, context),
            take: (found) => client.patchIntegratedCare(found, body),
          },
        )
      : writeOnce(job, context, { resource: 'integratedCare', id, body }, () =>
          client.patchIntegratedCare(id, body),
        ),
  );
  return remember(context, 'integratedCare', answer, { body, shortAnswer: id === undefined });
};
