import { query, statement } from './statements.js';
import type { Store } from './store.js';
import { transaction } from './transaction.js';

export type OnlineCheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

/** One verdict of `check --online`, as it prints it in `--json`. */
export interface OnlineCheckVerdict {
  id: string;
  status: OnlineCheckStatus;
  ms: number;
  message: string;
  hint: string | null;
}

export interface KeptOnlineCheck extends OnlineCheckVerdict {
  checkedAt: string;
}

export interface OnlineCheckRun {
  checkedAt: string;
  /** Every check of the config ran (no --only, no --skip): the run replaces all kept verdicts. */
  whole: boolean;
  checks: readonly OnlineCheckVerdict[];
  /** Where each check stands among all of the config's, when not all ran; else their order. */
  positions?: Readonly<Record<string, number>>;
}

/** Keeps the verdicts of a run: all of them for a whole run, else those it gave. */
export function keepOnlineChecks(store: Store, run: OnlineCheckRun): void {
  transaction(store, () => {
    if (run.whole) statement(store.db, 'DELETE FROM online_checks').run({});
    const put = statement<Record<string, string | number | null>>(
      store.db,
      `INSERT OR REPLACE INTO online_checks (id, position, status, ms, message, hint, checked_at)
       VALUES (@id, @position, @status, @ms, @message, @hint, @checkedAt)`,
    );
    run.checks.forEach((check, index) => {
      put.run({
        ...check,
        ms: Math.round(check.ms),
        position: run.positions?.[check.id] ?? index,
        checkedAt: run.checkedAt,
      });
    });
  });
}

/** The last verdict of each check, in the order the check prints them; empty before the first. */
export function lastOnlineChecks(store: Store): KeptOnlineCheck[] {
  return query<Record<string, never>, KeptOnlineCheck>(
    store.db,
    `SELECT id, status, ms, message, hint, checked_at AS checkedAt
       FROM online_checks ORDER BY position, id`,
    { checkedAt: 'text', id: 'text', status: 'text', ms: 'number', message: 'text', hint: 'text?' },
  ).all({});
}

/**
 * Up to `limit` records of `resources` the mirror holds live (not archived, not reduced by
 * retention), the latest first: records the platform should still show the key they came by.
 */
export function sampleMirrored(
  store: Store,
  resources: readonly string[],
  limit: number,
): { resource: string; id: string }[] {
  if (resources.length === 0) return [];
  return query<{ resources: string; limit: number }, { resource: string; id: string }>(
    store.db,
    `SELECT resource, _id AS id FROM mirror
      WHERE resource IN (SELECT value FROM json_each(@resources))
        AND coalesce(json ->> '$.archived', 0) = 0 AND json ->> '$._reduced' IS NULL
      ORDER BY updated_at DESC LIMIT @limit`,
    { resource: 'text', id: 'text' },
  ).all({ resources: JSON.stringify(resources), limit });
}
