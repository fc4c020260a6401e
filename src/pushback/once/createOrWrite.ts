import type { ResourceName } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import type { Completion, HandlerContext, Job } from '../../queue/types.js';
import type { Body } from '../payload.js';
import { createOnce } from './create.js';
import { about } from './failures.js';
import { remember } from './remember.js';
import { writeOnce } from './write.js';

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
