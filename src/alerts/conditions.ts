import type { Readiness } from '../http/readiness.js';
import type { Conditions, Condition, NamedEvent } from './watch.js';

/** What the store and the inbox say beside readiness: dead letters and rejected files. */
export interface AlertCounts {
  /** Dead letters no one has retried or dropped yet. */
  openDeadLetters: number;
  /** Dead letters ever opened (grows by one with each): a digest counts the new ones. */
  deadLettersOpened: number;
  /** Inbox files and requests refused since the start. */
  rejected: number;
  /** When the last refusal was, epoch ms; undefined when none. */
  lastRejectedAt?: number;
  /** The latest refused files, each with the `rejected` count it brought, oldest first. */
  rejectedFiles?: readonly NamedEvent[];
}

function check(readiness: Readiness, name: string, what: string): Condition {
  const result = readiness.checks[name];
  const active = result !== undefined && !result.ok;
  return { active, summary: active ? `${what}: ${result.problem ?? 'failing'}` : `${what} again` };
}

/**
 * The six states from the daemon's readiness checks (the same probes `/readyz` reports) and the
 * counts. A rejected file is an event, not a state: the state lasts while refusals keep coming
 * and clears after `quietMs` without one.
 */
export function conditionsOf(
  readiness: Readiness,
  counts: AlertCounts,
  now: number,
  quietMs: number,
): Conditions {
  const open = counts.openDeadLetters;
  const recentRejection =
    counts.lastRejectedAt !== undefined && now - counts.lastRejectedAt < quietMs;
  return {
    platformUnreachable: check(readiness, 'platform', 'the platform is unreachable'),
    erpUnreachable: check(readiness, 'erp', 'the ERP is unreachable'),
    diskFull: check(readiness, 'storage', 'the disk is full'),
    checkpointStuck: check(readiness, 'pulls', 'pulls are behind their schedule'),
    deadLetter: {
      active: open > 0,
      summary:
        open > 0
          ? `${open} job(s) dead and waiting for a person: homecare-sync queue list --dead`
          : 'no dead letter open',
      count: counts.deadLettersOpened,
    },
    inboxRejected: {
      active: recentRejection,
      summary: recentRejection
        ? `ERP messages refused (${counts.rejected} since the start): see the inbox's .error/ reports`
        : 'no ERP message refused lately',
      count: counts.rejected,
      ...(counts.rejectedFiles === undefined ? {} : { events: counts.rejectedFiles }),
    },
  };
}
