import {
  answerStamp,
  derivedOnWrite,
  type ResourceName,
  carriesOthersChange,
  fingerprintOf,
} from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import {
  ledgerHolds,
  getMirror,
  getMirrorVersion,
  keepVersionRecord,
  recordOwnWrite,
  recordVersion,
  upsertMirror,
  type MirrorEntry,
  type Store,
} from '../../store/index.js';
import { deliveryJob } from '../../queue/deliveryJob.js';
import { enqueue } from '../../queue/enqueue.js';
import type { Completion, HandlerContext } from '../../queue/types.js';
import type { Body } from '../payload.js';

export interface Written {
  /** The body the write sent. */
  body: Body;
  /** The answer is short (`{_id, updated}`): the mirror takes the rest from the body. */
  shortAnswer?: boolean;
  /** The mirror's entry before the write, when the handler has read it already. */
  before?: MirrorEntry;
  /**
   * The write changed a record the platform held before it (not a create), found by the ERP's
   * own key (customerId, customerNumber): one no pull may have brought yet.
   */
  updates?: boolean;
}

/**
 * Hands the ERP the answer's version when it carries someone else's change besides ours
 * (`carriesOthersChange`), exactly once, as a pull would: the ledger notes the version, so the
 * list bringing it back is a repeat. Noted without a hash: the list's text of it may differ
 * from the answer's in fields a list leaves out, and must not make a second version. For a
 * record the ERP has from a pull (the ledger holds a version of it) when the answer carries a
 * change besides ours; the version our write was based on may be an answer to an earlier write
 * of ours, which no pull brought. And for a record the ERP changed by its own key before any
 * pull brought it: the platform holds more of it than the ERP sent (a platform user's edits),
 * and a list leaving our own writes out may never show it (spec document 1, rule 2).
 */
function handOverOthersChange(
  store: Store,
  resource: ResourceName,
  written: { id: string; version: string; json: string; mirrored: boolean },
): void {
  const { id, version, json } = written;
  if (!recordVersion(store, resource, id, version)) return;
  if (!written.mirrored) keepVersionRecord(store, resource, id, version, json);
  enqueue(store, deliveryJob(resource, id, version));
}

/**
 * Keeps what the platform answered in the mirror, so the next job about the entity finds it
 * (a PUT instead of a second POST, the current order status), and the fingerprint of what we
 * wrote, so the version the next pull brings back is known as our own (src/contract/ownChange.ts).
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
  const version = answerStamp(resource, answer) ?? context.clock.now().toISOString();
  // Worked out now, while the job's lane has it, so the group commit only writes rows: the
  // commit holds the event loop, and every answer arriving meanwhile waits for it.
  const seen = written.before ?? getMirror(store, resource, id);
  const derived = derivedOnWrite(resource);
  const ownWrite = fingerprintOf(written.body, record, seen?.record, derived);
  const erpHasIt = seen !== undefined && ledgerHolds(store, resource, id);
  // The mirror holds this very version, and no pull brought it: an earlier write of ours made
  // it (a replay found the platform holding it already). It carries nothing the ERP lacks.
  const ours = seen?.version === version;
  const mirrored = { ...record, _id: id };
  const json = JSON.stringify(mirrored);
  return () => {
    // A pull may have stored a newer version since it was read (while the write was on its
    // way): the fingerprint then compares against that one, which the pull has handed over.
    const newer = getMirrorVersion(store, resource, id) !== seen?.version;
    const base = newer ? getMirror(store, resource, id) : seen;
    const fingerprint = newer
      ? fingerprintOf(written.body, record, base?.record, derived)
      : ownWrite;
    // Read again only where the ledger did not hold it before the write (a create, a record
    // the ERP changed before any pull brought it): a pull may have noted it meanwhile.
    const pulled = erpHasIt || ledgerHolds(store, resource, id);
    const others = pulled
      ? base !== undefined && carriesOthersChange(fingerprint, record)
      : written.updates === true && !ours;
    // Once handed over, the answer is the base our write's echo is measured against.
    recordOwnWrite(
      store,
      resource,
      id,
      others ? fingerprintOf(written.body, record, record, derived) : fingerprint,
    );
    const stored = upsertMirror(store, resource, mirrored, version, json);
    if (others) handOverOthersChange(store, resource, { id, version, json, mirrored: stored });
  };
}
