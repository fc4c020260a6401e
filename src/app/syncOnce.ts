import type { ResourceName } from '../contract/index.js';
import type { ScanReport } from '../erp/inbox/index.js';
import { openDeadLetterJobIds } from '../store/index.js';
import type { DeliverSummary } from '../sync/deliver.js';
import type { PullSummary } from '../sync/puller.js';
import type { App } from './app.js';
import { takeWriterLock } from './writerLock.js';

export interface SyncReport {
  pulls: PullSummary[];
  delivery: DeliverSummary;
  inbox: ScanReport | undefined;
  queue: { ran: number; waiting: number };
  newDeadLetters: number;
  ok: boolean;
}

function add(total: DeliverSummary, more: DeliverSummary): DeliverSummary {
  return {
    delivered: total.delivered + more.delivered,
    waiting: more.waiting,
    retry: more.retry,
    rejected: total.rejected + more.rejected,
  };
}

/** Delivers until a round hands nothing more to the ERP (each round takes a batch). */
async function deliverAll(app: App): Promise<DeliverSummary> {
  let total: DeliverSummary = { delivered: 0, waiting: 0, retry: 0, rejected: 0 };
  for (;;) {
    const round = await app.deliver();
    total = add(total, round);
    if (round.delivered === 0) return total;
  }
}

/**
 * One full pass, as `sync --once` runs it: pull, hand to the ERP (which queues the
 * acknowledgements), read the inbox, drain the queue as far as it goes now. `ok` only when
 * nothing failed: every pull succeeded, nothing waits for the ERP or for a retry, no new dead
 * letter.
 */
export async function syncOnce(app: App, resources?: readonly ResourceName[]): Promise<SyncReport> {
  const lock = takeWriterLock(app.store);
  try {
    const deadBefore = openDeadLetterJobIds(app.store).length;
    app.worker.recover();
    const pulls = await app.runner.runAll(resources);
    const delivery = await deliverAll(app);
    const inbox = app.inbox ? await app.inbox.scanOnce() : undefined;
    const queue = await app.worker.runUntilEmpty();
    const newDeadLetters = openDeadLetterJobIds(app.store).length - deadBefore;
    const inboxFailed = (inbox?.counts.rejected ?? 0) + (inbox?.counts.failed ?? 0) > 0;
    const ok =
      pulls.every((p) => p.ok) &&
      delivery.retry + delivery.rejected + delivery.waiting === 0 &&
      !inboxFailed &&
      queue.waiting === 0 &&
      newDeadLetters <= 0;
    return { pulls, delivery, inbox, queue, newDeadLetters, ok };
  } finally {
    lock.release();
  }
}
