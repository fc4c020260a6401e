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

/** A state from a readiness check: what is wrong while it fails, what came back once it passes. */
function check(
  readiness: Readiness,
  name: string,
  what: { down: string; back: string },
): Condition {
  const result = readiness.checks[name];
  const active = result !== undefined && !result.ok;
  return { active, summary: active ? `${what.down}: ${result.problem ?? 'failing'}` : what.back };
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
    platformUnreachable: check(readiness, 'platform', {
      down: 'the platform is unreachable',
      back: 'the platform is reachable again',
    }),
    erpUnreachable: check(readiness, 'erp', {
      down: 'the ERP is unreachable',
      back: 'the ERP is reachable again',
    }),
    diskFull: check(readiness, 'storage', {
      down: 'the disk is full',
      back: 'the database can be written again',
    }),
    checkpointStuck: check(readiness, 'pulls', {
      down: 'pulls are behind their schedule',
      back: 'pulls are on schedule again',
    }),
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
