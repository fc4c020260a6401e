import { z } from 'zod';
import { entitySchema } from '../../contract/index.js';
import type { Handler, HandlerContext, Job } from '../../queue/types.js';
import type { PushBackKind } from '../descriptor.js';
import { createOnce, type CreateLookup } from '../once/create.js';
import { patientOf } from '../entityKeys.js';
import { about } from '../once/failures.js';
import { onCreate, PATIENT_CUSTOMER_ID, patientReference, present } from '../inboxRules.js';
import { withPatientId } from '../patientReference.js';
import { textOf, without, type Body } from '../payload.js';
import { remember } from '../once/remember.js';
import { changedSince, changedSinceQueued, writeOnce } from '../once/write.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

/** The fields that tell one care arrangement of a patient from another, where the job sends them. */
const CARE_KEY = ['patientId', 'therapyId', 'therapyTypeId', 'isInitialCare', 'salesId'];

/**
 * How a create whose answer was lost finds what it made: the care arrangements of the job's
 * patient and therapy created since the job was queued. The status lists show our own writes
 * too (spec document 1, rule 3: control is by status change), so finding none means the try
 * made none; the one found is taken with a PATCH of the job's body.
 */
function careMadeSince(job: Job, body: Body, context: HandlerContext): CreateLookup {
  const find = async () => {
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
  const take = (found: string) => context.client.patchIntegratedCare(found, body);
  return { resource: 'integratedCare', find, take };
}

/**
 * A care arrangement by its `_id`; a new one by its patient and the fields that tell it from the
 * patient's others (CARE_KEY), so that two new arrangements of one patient are two messages.
 */
function careKey(body: Body): string {
  const id = textOf(body, '_id');
  if (id !== undefined) return `integratedCare:${id}`;
  const fields = CARE_KEY.filter((field) => field !== 'patientId').map((field) =>
    JSON.stringify(body[field] ?? null),
  );
  return `integratedCare:${patientOf(body)}/${fields.join('/')}`;
}

/** A care arrangement: PATCH when `_id` is given, else POST (variants A and B). */
const pushIntegratedCare: Handler = async (job, context) => {
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
          careMadeSince(job, body, context),
        )
      : writeOnce(job, context, { resource: 'integratedCare', id, body }, () =>
          client.patchIntegratedCare(id, body),
        ),
  );
  return remember(context, 'integratedCare', answer, { body, shortAnswer: id === undefined });
};

export const integratedCare = {
  name: 'integratedCare',
  inbox: {
    entity: entitySchema('integratedCare'),
    minimum: z.looseObject({}),
    rules: (body) => [
      ...onCreate('therapyId', 'isInitialCare')(body),
      ...(present(body, '_id') ? [] : patientReference(body)),
    ],
    erpFields: PATIENT_CUSTOMER_ID,
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: careKey,
  entityKey: (body) => `integratedCare:${textOf(body, '_id') ?? patientOf(body)}`,
  // A message may change a few fields of an arrangement, not state it whole.
  supersedes: false,
  handler: pushIntegratedCare,
} as const satisfies PushBackKind;
