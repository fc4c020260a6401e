import { PermanentError } from '../shared/errors.js';
import type { Handler } from '../queue/types.js';
import { createOnce } from './duplicates.js';
import { refusedWith, relabel } from './failures.js';
import { isObject, requiredText, without } from './payload.js';
import { resolvePatientId } from './patientReference.js';

/**
 * A file for a patient, base64 in `data` (variant B). Not mirrored: nothing later looks an
 * attachment up, and the platform offers no way to change one. A lost answer to the POST is
 * not tried again: the list of attachments leaves our own writes out (spec document 1, rule 2).
 */
export const pushAttachment: Handler = async (job, context) => {
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
