import { z } from 'zod';
import { entitySchema } from '../../contract/index.js';
import type { Handler } from '../../queue/types.js';
import { findMirrorBy, type Store } from '../../store/index.js';
import { createOrWriteOnce } from '../once/createOrWrite.js';
import type { PushBackKind } from '../descriptor.js';
import { first } from '../entityKeys.js';
import { PATIENT_CUSTOMER_ID, patientReference, text } from '../inboxRules.js';
import { withPatientId } from '../patientReference.js';
import { requiredText, textOf, without, type Body } from '../payload.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

/** The device's `_id`: given, or mirrored with its serial number; undefined for a new device. */
const knownDevice = (body: Body, store: Store): string | undefined =>
  textOf(body, '_id') ??
  findMirrorBy(store, 'device', 'serialNumber', first(body, 'serialNumber'))[0]?.id;

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
  const id = knownDevice(job.payload, context.store);
  return createOrWriteOnce(
    job,
    context,
    { subject, resource: 'device', id, body, shortAnswer: true },
    {
      create: () => context.client.createDevice(body),
      write: (known) => context.client.replaceDevice(known, body),
    },
  );
};

export const device = {
  name: 'device',
  inbox: {
    entity: entitySchema('device'),
    minimum: z.looseObject({ serialNumber: text, description: text }),
    rules: patientReference,
    erpFields: PATIENT_CUSTOMER_ID,
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: (body) => `device:${first(body, 'serialNumber')}`,
  supersedes: true,
  handler: pushDevice,
} as const satisfies PushBackKind;
