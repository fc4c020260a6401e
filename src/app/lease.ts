import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { acquireLease, getLease, releaseLease, renewLease, type Store } from '../store/index.js';
import { SetupError } from '../shared/errors.js';

const NAME = 'writer';
const TTL_MS = 60_000;

export interface WriterLease {
  holder: string;
  /** Extends the lease; false when another process has taken it (this one must stop writing). */
  renew(): boolean;
  release(): void;
}

/**
 * Takes the database's one-writer lease, so two homecare-sync processes never write one
 * database at once (two would hand records to the ERP twice). A lease a dead process left
 * expires after a minute.
 */
export function takeWriterLease(store: Store): WriterLease {
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  if (!acquireLease(store, NAME, holder, TTL_MS)) {
    const current = getLease(store, NAME);
    throw new SetupError(`another homecare-sync is using ${store.path}`, [
      `the database is held by ${current?.holder ?? 'another process'} until ${current?.expiresAt ?? 'its lease expires'}; stop that one first, or wait a minute if it died`,
    ]);
  }
  return {
    holder,
    renew: () => renewLease(store, NAME, holder, TTL_MS),
    release: () => void releaseLease(store, NAME, holder),
  };
}

export const LEASE_RENEW_MS = TTL_MS / 3;
