import { pino } from 'pino';
import { endpointsOf, type PlatformCore } from '../../platform/index.js';
import type { Handler, HandlerContext, Job } from '../../queue/types.js';
import { errorMessage, HomecareError, TransientError } from '../../shared/errors.js';
import { createHandlers } from '../handlers.js';
import { notingCore, type NotedRequest } from './notingCore.js';

/** What a job would do on the platform: its requests, and what only the run decides or stops it. */
export interface Preview {
  requests: NotedRequest[];
  notes: string[];
}

/** What a preview runs on: the store, the contract, the clock, and what answers its reads. */
export type PreviewContext = Pick<HandlerContext, 'store' | 'contract' | 'clock'> & {
  reads: PlatformCore;
};

/** A refusal already noted as the request's own (the contract's check): not said twice. */
const noted = (requests: readonly NotedRequest[], error: unknown): boolean =>
  error instanceof HomecareError &&
  error.code === 'CONTRACT_REFUSAL' &&
  requests.some((request) => 'refused' in request && error.message.endsWith(request.refused));

function failureNote(error: unknown): string {
  if (error instanceof TransientError) return errorMessage(error);
  if (error instanceof HomecareError) return `${error.message} (the job goes to the dead letters)`;
  throw error;
}

/**
 * Runs the job's real handler against the noting core (`reads` answering its reads) and says
 * what it would write: the one model of a handler's work is the handler. Nothing it does stays:
 * its Completion (the mirror, the fingerprints) is not run, and a failure becomes a note.
 */
export async function previewJob(
  handler: Handler,
  job: Job,
  context: PreviewContext,
): Promise<Preview> {
  const preview: Preview = { requests: [], notes: [] };
  const core = notingCore(context.reads, context.store, preview.requests);
  const run: HandlerContext = {
    store: context.store,
    contract: context.contract,
    clock: context.clock,
    client: { ...core, ...endpointsOf(core) },
    logger: pino({ level: 'silent' }),
    answered: (answer) => {
      if (!answer.sent) preview.notes.push(`nothing sent: ${answer.why}`);
    },
  };
  try {
    await handler(job, run);
  } catch (error) {
    if (!noted(preview.requests, error)) preview.notes.push(failureNote(error));
  }
  return preview;
}

/**
 * What a platform write's job would write (`inbox check`, `sync --dry-run`, re-deriving our
 * writes after a restore, the writes of an interrupted job): its own handler, run by previewJob.
 */
export function previewOfJob(job: Job, context: PreviewContext): Promise<Preview> {
  const handler = createHandlers()[job.kind];
  if (handler === undefined) throw new Error(`${job.kind} writes nothing to the platform`);
  return previewJob(handler, job, context);
}

/** A job of `kind` about `payload`, as the queue would hand it to its handler the first time. */
export function freshJob(kind: string, entityKey: string, payload: Job['payload'], now: Date): Job {
  return { id: 0, kind, entityKey, payload, attempts: 0, createdAt: now.toISOString() };
}
