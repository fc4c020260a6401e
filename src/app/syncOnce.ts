import { setTimeout as sleep } from 'node:timers/promises';
import type { ResourceName } from '../contract/index.js';
import type { ScanReport } from '../erp/inbound/index.js';
import { DELIVER_PREFIX, PLATFORM_WRITES } from '../queue/index.js';
import {
  countHeldJobs,
  countJobs,
  countOpenDeadJobs,
  isPullPaused,
  openDeadLetterJobIds,
  pausesInForce,
  type Store,
} from '../store/index.js';
import type { PullSummary } from '../pull/pullTypes.js';
import type { App } from './app.js';
import { numberBatchesAboveOutbox } from '../deliver/adapter.js';
import { rederiveAfterRestore } from '../operations/restored.js';
import { takeWriterLock } from './writerLock.js';

/** Where the hand-over to the ERP stands after the pass. */
export interface DeliveryReport {
  /** Record versions handed to the ERP in this pass. */
  delivered: number;
  /** Versions still to hand over: waiting for their next try or a missing reference. */
  undelivered: number;
  /** Versions the ERP refused, or that failed too often: open dead letters. */
  refused: number;
}

/** What an operator's pauses held back in the pass (`homecare-sync pause`). */
export interface PausedReport {
  /** Resources asked for whose pulls are paused: not pulled. */
  pulls: ResourceName[];
  /** The paused job kinds of platform writes (`*`: every one). */
  writes: string[];
  /** Jobs those pauses keep pending. */
  heldJobs: number;
}

export interface SyncReport {
  pulls: PullSummary[];
  paused: PausedReport;
  delivery: DeliveryReport;
  inbox: ScanReport | undefined;
  queue: { ran: number; waiting: number };
  newDeadLetters: number;
  ok: boolean;
}

const handedOver = (store: Store): number => countJobs(store, 'done', DELIVER_PREFIX);

function deliveryReport(store: Store, handedBefore: number): DeliveryReport {
  return {
    delivered: handedOver(store) - handedBefore,
    undelivered:
      countJobs(store, 'pending', DELIVER_PREFIX) + countJobs(store, 'running', DELIVER_PREFIX),
    refused: countOpenDeadJobs(store, DELIVER_PREFIX),
  };
}

/** The second scan's report, with what the first did to files the second no longer saw. */
function bothScans(first: ScanReport, second: ScanReport): ScanReport {
  const handled = first.files.filter((file) => file.status !== 'waiting');
  const files = [...handled, ...second.files];
  const counts = { ...second.counts };
  for (const file of handled) counts[file.status] += 1;
  return { ...second, counts, files, odd: [...first.odd, ...second.odd] };
}

/**
 * The inbox as one pass reads it. Without `.done` markers a file is complete only once two looks
 * at least `minFileAgeMs` apart saw it unchanged; a pass of its own has no earlier look, so when
 * the first scan leaves files waiting, it looks again after `minFileAgeMs`. A file still written
 * then (or empty, which takes longer) waits for the next pass.
 */
async function readInbox(app: App): Promise<ScanReport | undefined> {
  if (app.inbox === undefined) return undefined;
  const first = await app.inbox.scanOnce();
  const { doneMarker, minFileAgeMs } = app.config.erp.file;
  if (doneMarker || first.counts.waiting === 0) return first;
  await sleep(minFileAgeMs);
  return bothScans(first, await app.inbox.scanOnce());
}

/**
 * One full pass, as `sync --once` runs it: pull (which queues each new version's hand-over to
 * the ERP), read the inbox, then run the queue as far as it goes now: hand-overs,
 * acknowledgements, push-backs, and the jobs waiting for their back-off (an operator's pass is a
 * request for the work now: after an outage, it need not wait for the back-off to end; a
 * `Retry-After` is still honoured). `ok` only when nothing failed: every pull succeeded, every
 * version pulled so far is with the ERP (none waits, none refused, new or old), nothing waits
 * in the queue but what an operator paused, no new dead letter. Paused pulls and writes are
 * left alone (their pause is read as the daemon reads it) and reported in `paused`.
 */
export async function syncOnce(app: App, resources?: readonly ResourceName[]): Promise<SyncReport> {
  const lock = takeWriterLock(app.store);
  try {
    numberBatchesAboveOutbox(app.store, app.adapter, app.logger);
    await rederiveAfterRestore(app);
    const deadBefore = openDeadLetterJobIds(app.store).length;
    const handedBefore = handedOver(app.store);
    app.worker.recover();
    const asked = resources ?? app.runner.resources();
    const pausedPulls = asked.filter((resource) => isPullPaused(app.store, resource));
    const pulls = await app.runner.runAll(resources);
    const inbox = await readInbox(app);
    const queue = await app.worker.runUntilEmpty({ skipBackoff: true });
    const paused: PausedReport = {
      pulls: pausedPulls,
      writes: pausesInForce(app.store)
        .filter((p) => p.direction === 'push')
        .map((p) => p.target),
      heldJobs: countHeldJobs(app.store, PLATFORM_WRITES),
    };
    const delivery = deliveryReport(app.store, handedBefore);
    const newDeadLetters = openDeadLetterJobIds(app.store).length - deadBefore;
    const inboxFailed = (inbox?.counts.rejected ?? 0) + (inbox?.counts.failed ?? 0) > 0;
    const ok =
      pulls.every((p) => p.ok) &&
      delivery.undelivered + delivery.refused === 0 &&
      !inboxFailed &&
      queue.waiting - paused.heldJobs === 0 &&
      newDeadLetters <= 0;
    return { pulls, paused, delivery, inbox, queue, newDeadLetters, ok };
  } finally {
    lock.release();
  }
}
