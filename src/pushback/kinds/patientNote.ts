import { z } from 'zod';
import { entitySchema } from '../../contract/index.js';
import type { Handler } from '../../queue/types.js';
import type { PushBackKind } from '../descriptor.js';
import { hashedKeyPart, patientOf } from '../entityKeys.js';
import { PATIENT_CUSTOMER_ID, patientReference, text } from '../inboxRules.js';
import { createOrWriteOnce } from '../once/createOrWrite.js';
import { withPatientId } from '../patientReference.js';
import { textOf, without, type Body } from '../payload.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

/**
 * A patient note: PATCH /patientNote/{_id} when `_id` is given, else POST. A lost answer to the
 * POST is not tried again: the only list of notes leaves our own writes out (spec document 1,
 * rule 2), so not finding the note there would prove nothing.
 */
const pushPatientNote: Handler = async (job, context) => {
  const id = textOf(job.payload, '_id');
  const subject = id === undefined ? 'new patient note' : `patient note ${id}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: id === undefined,
  });
  return createOrWriteOnce(
    job,
    context,
    { subject, resource: 'patientNote', id, body },
    {
      create: () => context.client.createPatientNote(body),
      write: (known) => context.client.patchPatientNote(known, body),
    },
  );
};

/**
 * A note by its `_id`; a new one by its patient and its text (hashed: a key is logged, a note's
 * text may be personal), so that two new notes of one patient are two messages.
 */
function noteKey(body: Body): string {
  const id = textOf(body, '_id');
  if (id !== undefined) return `patientNote:${id}`;
  const text = hashedKeyPart(textOf(body, 'noteText') ?? '');
  return `patientNote:${patientOf(body)}/${text}`;
}

export const patientNote = {
  name: 'patientNote',
  inbox: {
    entity: entitySchema('patientNote'),
    minimum: z.looseObject({ noteText: text }),
    rules: patientReference,
    erpFields: PATIENT_CUSTOMER_ID,
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: noteKey,
  entityKey: (body) => `patientNote:${textOf(body, '_id') ?? patientOf(body)}`,
  // Each note is one of its own.
  supersedes: false,
  handler: pushPatientNote,
} as const satisfies PushBackKind;
