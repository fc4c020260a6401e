import { z } from 'zod';
import { entitySchema } from '../../contract/index.js';
import { CSV_BY_FIELD_NAMES, type Problem } from '../../erp/messages/index.js';
import type { Handler } from '../../queue/types.js';
import { PermanentError } from '../../shared/errors.js';
import type { PushBackKind } from '../descriptor.js';
import { createOnce } from '../once/create.js';
import { first, hashedKeyPart, patientOf } from '../entityKeys.js';
import { refusedWith, relabel } from '../once/failures.js';
import { PATIENT_CUSTOMER_ID, present, text } from '../inboxRules.js';
import { resolvePatientId } from '../patientReference.js';
import { isObject, requiredText, without, type Body } from '../payload.js';

/**
 * A file for a patient, base64 in `data` (variant B). Not mirrored: nothing later looks an
 * attachment up, and the platform offers no way to change one. A lost answer to the POST is
 * not tried again: the list of attachments leaves our own writes out (spec document 1, rule 2).
 */
const pushAttachment: Handler = async (job, context) => {
  const filename = requiredText(job, 'filename');
  const metadata = isObject(job.payload.metadata) ? job.payload.metadata : {};
  const subject = `attachment ${filename}`;
  const patientId = await resolvePatientId(
    job,
    { patientId: metadata.patientId, patientCustomerId: job.payload.patientCustomerId },
    context,
    subject,
  );
  const body = {
    ...without(job.payload, 'patientCustomerId'),
    metadata: { ...metadata, patientId },
  };
  try {
    await createOnce(job, context, { subject, resource: 'attachment', body }, () =>
      context.client.createAttachment(body),
    );
  } catch (error) {
    if (!refusedWith(error, 403)) throw relabel(error, subject);
    const hint =
      'ask the platform operator to allow this API key to create attachments, then retry the job';
    throw new PermanentError(
      `${subject} for patient ${patientId}: this API key may not create attachments (HTTP 403); ${hint}`,
      {
        resource: 'attachment',
        code: 'ATTACHMENT_FORBIDDEN',
        status: 403,
        ...(error.bodyExcerpt === undefined ? {} : { bodyExcerpt: error.bodyExcerpt }),
        hint,
        cause: error,
      },
    );
  }
};

/** The patient is named in the metadata, or by the ERP's customer number beside it. */
function patientNamed(body: Body): Problem[] {
  const metadata = isObject(body.metadata) ? body.metadata : {};
  return present(metadata, 'patientId') || present(body, 'patientCustomerId')
    ? []
    : [
        {
          path: 'metadata.patientId',
          message: 'metadata.patientId or patientCustomerId is required',
        },
      ];
}

export const attachment = {
  name: 'attachment',
  inbox: {
    entity: entitySchema('attachment'),
    minimum: z.looseObject({
      data: z.base64('must be base64'),
      filename: text,
      mime: text,
      metadata: z.looseObject({ type: z.number(), patientId: text.optional() }),
    }),
    rules: patientNamed,
    erpFields: PATIENT_CUSTOMER_ID,
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  // A file's name may be the patient's: the key, which logs show, holds it hashed.
  businessKey: (body) => `attachment:${patientOf(body)}/${hashedKeyPart(first(body, 'filename'))}`,
  entityKey: (body) => `attachment:${patientOf(body)}/${first(body, 'filename')}`,
  // Each file is one of its own.
  supersedes: false,
  handler: pushAttachment,
} as const satisfies PushBackKind;
