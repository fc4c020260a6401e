import type { ResourceName } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import { getMirror, recordOwnWrite, upsertMirror, type MirrorRecord } from '../../store/index.js';
import { fingerprintOf } from '../../sync/ownEcho.js';
import type { Completion, HandlerContext } from '../types.js';
import type { Body } from './payload.js';

function versionOf(record: Body, context: HandlerContext): string {
  for (const field of ['timestamp', 'updatedAt', 'updated']) {
    const value = record[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return context.clock.now().toISOString();
}

export interface Written {
  /** The body the write sent. */
  body: Body;
  /** The answer is short (`{_id, updated}`): the mirror takes the rest from the body. */
  shortAnswer?: boolean;
  /** The mirrored record before the write, when the handler has read it already. */
  before?: MirrorRecord;
}

/**
 * Keeps what the platform answered in the mirror, so the next job about the entity finds it
 * (a PUT instead of a second POST, the current order status), and the fingerprint of what we
 * wrote, so the version the next pull brings back is known as our own (src/sync/ownEcho.ts).
 * The handler returns it as the job's Completion: it commits with the job's `done`, in the
 * transaction that records the outcome, not in one of its own.
 */
export function remember(
  context: HandlerContext,
  resource: ResourceName,
  answer: PlatformRecord,
  written: Written,
): Completion | undefined {
  const record = written.shortAnswer ? { ...written.body, ...answer } : answer;
  const id = record._id;
  if (typeof id !== 'string' || id === '') {
    context.logger.warn({ resource }, 'the platform answered a write without _id; not mirrored');
    return undefined;
  }
  const { store } = context;
  // The answer's own stamp: the ERP's message may carry an older one of its own.
  const version = versionOf(answer, context);
  // Worked out now, while the job's lane has it, so the group commit only writes rows: the
  // commit holds the event loop, and every answer arriving meanwhile waits for it. The mirror
  // cannot change in between: the job's record has no other job running, and a pull commits
  // gathered outcomes before it stores anything (commitGatheredOutcomes).
  const before = written.before ?? getMirror(store, resource, id)?.record;
  const ownWrite = fingerprintOf(written.body, record, before);
  const mirrored = { ...record, _id: id };
  const json = JSON.stringify(mirrored);
  return () => {
    recordOwnWrite(store, resource, id, ownWrite);
    upsertMirror(store, resource, mirrored, version, json);
  };
}
