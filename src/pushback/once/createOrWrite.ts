import type { ResourceName } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import type { Completion, HandlerContext, Job } from '../../queue/types.js';
import type { Body } from '../payload.js';
import { createNoting, createOnce } from './create.js';
import { about } from './failures.js';
import { remember } from './remember.js';
import { existedBefore, writeOnce } from './write.js';

/** The record a message is about: `id` undefined when it names none yet. */
export interface Target {
  subject: string;
  resource: ResourceName;
  id: string | undefined;
  body: Body;
  /** The platform answers with `{_id, updated}` only (see Written). */
  shortAnswer?: boolean;
}

/**
 * A create when the message names no record, else the write to the one it names: each made once
 * (createOnce, writeOnce), a failure said about the subject, the answer remembered.
 */
export async function createOrWriteOnce(
  job: Job,
  context: HandlerContext,
  target: Target,
  send: { create: () => Promise<PlatformRecord>; write: (id: string) => Promise<PlatformRecord> },
): Promise<Completion | undefined> {
  const { subject, resource, id, body, shortAnswer } = target;
  const answer = await about(subject, () =>
    id === undefined
      ? createOnce(job, context, { subject, resource, body }, send.create)
      : writeOnce(job, context, { resource, id, body }, () => send.write(id)),
  );
  return remember(context, resource, answer, { body, ...(shortAnswer ? { shortAnswer } : {}) });
}

/** What a create answers that may have found the record under the ERP's key and written it. */
export interface Upserted {
  answer: PlatformRecord;
  /** It changed a record the platform held before (see Written). */
  updates: boolean;
}

/**
 * The write to the record the ERP's own key found (`id`), else a create that may find the record
 * made already and write it instead (noted as tried while its outcome is unknown: createNoting).
 * `create` answers undefined when there is nothing to write. The answer is remembered with
 * whether it changed a record the platform held before.
 */
export async function upsertOnce(
  job: Job,
  context: HandlerContext,
  target: Target,
  send: {
    create: () => Promise<Upserted | undefined>;
    write: (id: string) => Promise<PlatformRecord>;
  },
): Promise<Completion | undefined> {
  const { subject, resource, id, body } = target;
  const written =
    id === undefined
      ? await createNoting(job, context, { subject, resource, body }, send.create)
      : {
          answer: await writeOnce(job, context, { resource, id, body }, () => send.write(id)),
          updates: true,
        };
  if (written === undefined) return undefined;
  // What the ERP sent counts as written; what a PUT copied from the platform is compared as the
  // rest of the record, so a change a platform user made just before still reaches the ERP.
  return remember(context, resource, written.answer, {
    body,
    updates: written.updates && existedBefore(job, context, written.answer),
  });
}
