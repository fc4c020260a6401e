import { z } from 'zod';
import { entitySchema } from '../../contract/index.js';
import type { Handler } from '../../queue/types.js';
import { findMirrorBy } from '../../store/index.js';
import type { PushBackKind } from '../descriptor.js';
import { createOnce } from '../duplicates.js';
import { first } from '../entityKeys.js';
import { about } from '../failures.js';
import { PATIENT_CUSTOMER_ID, patientReference, text } from '../inboxRules.js';
import { withPatientId } from '../patientReference.js';
import { requiredText, textOf, without } from '../payload.js';
import { remember } from '../remember.js';
import { writeOnce } from '../writeOnce.js';

/**
 * A device: PUT /device/{_id} when it is known by its serial number, else POST (never with
 * `_id`). The `_id` the POST returns is mirrored with the serial number, so the next job PUTs.
 * A lost answer to the POST is not tried again: no variant lists devices or finds one by its
 * serial number.
 */
const pushDevice: Handler = async (job, context) => {
  const serialNumber = requiredText(job, 'serialNumber');
  const subject = `device serialNumber ${serialNumber}`;
  const body = await withPatientId(job, without(job.payload, '_id'), context, subject, {
    required: true,
  });
  const id =
    textOf(job.payload, '_id') ??
    findMirrorBy(context.store, 'device', 'serialNumber', serialNumber)[0]?.id;
  const answer = await about(subject, () =>
    id === undefined
      ? createOnce(job, context, { subject, resource: 'device', body }, () =>
          context.client.createDevice(body),
        )
      : writeOnce(job, context, { resource: 'device', id, body }, () =>
          context.client.replaceDevice(id, body),
        ),
  );
  return remember(context, 'device', answer, { body, shortAnswer: true });
};

export const device = {
  name: 'device',
  inbox: {
    entity: entitySchema('device'),
    minimum: z.looseObject({ serialNumber: text, description: text }),
    rules: patientReference,
    erpFields: PATIENT_CUSTOMER_ID,
  },
  entityKey: (body) => `device:${first(body, 'serialNumber')}`,
  supersedes: true,
  handler: pushDevice,
} as const satisfies PushBackKind;
