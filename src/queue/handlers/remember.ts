import type { ResourceName } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import {
  getMirror,
  getMirrorVersion,
  recordOwnWrite,
  upsertMirror,
  type MirrorEntry,
} from '../../store/index.js';
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
  /** The mirror's entry before the write, when the handler has read it already. */
  before?: MirrorEntry;
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
  // commit holds the event loop, and every answer arriving meanwhile waits for it.
  const seen = written.before ?? getMirror(store, resource, id);
  const ownWrite = fingerprintOf(written.body, record, seen?.record);
  const mirrored = { ...record, _id: id };
  const json = JSON.stringify(mirrored);
  return () => {
    // A pull may have stored a newer version since it was read (while the write was on its
    // way): the fingerprint then compares against that one, which the pull has handed over.
    const fingerprint =
      getMirrorVersion(store, resource, id) === seen?.version
        ? ownWrite
        : fingerprintOf(written.body, record, getMirror(store, resource, id)?.record);
    recordOwnWrite(store, resource, id, fingerprint);
    upsertMirror(store, resource, mirrored, version, json);
  };
}
