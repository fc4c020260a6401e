import {
  addDeadLetter,
  claimJob,
  insertJob,
  markDead,
  rejectDelivery,
  transaction,
  type NewDeadLetter,
  type Store,
} from '../store/index.js';
import { REDELIVER_KIND } from './types.js';

export interface DeliveryRef {
  resource: string;
  id: string;
  version: string;
}

/**
 * Puts a record version the ERP would not take into the dead letters, so operators see and
 * replay it with the other dead letters (`queue list --dead`, `queue retry <id>`), and keeps
 * the reason on the ledger so the delivery stage does not send it again by itself.
 */
export function deadLetterDelivery(
  store: Store,
  ref: DeliveryRef,
  attempts: number,
  letter: NewDeadLetter,
): number {
  return transaction(store, () => {
    rejectDelivery(store, ref, letter.reason);
    const { id } = insertJob(store, {
      kind: REDELIVER_KIND,
      entityKey: `deliver:${ref.resource}:${ref.id}`,
      payload: { ...ref },
      supersedes: false,
    });
    // Born dead: claimed and failed at once, through the same steps a worker takes.
    claimJob(store, id, store.clock.now().toISOString());
    markDead(store, id, { attempts, error: letter.reason, status: letter.httpStatus });
    addDeadLetter(store, id, letter);
    return id;
  });
}
