import { z } from 'zod';
import { cronExpression, flag, integer } from './fields.js';

/** What is kept this many days by default (GDPR Art. 5(1)(e): no longer than needed). */
export const DEFAULT_RETENTION_DAYS = 30;

/**
 * How long the keys of an ended record (ids, stamp, hash) and of a handled ERP message stay
 * after the version that ended it was pulled or the message handled: what recognises a repeat.
 */
export const DEFAULT_ENDED_KEYS_DAYS = 365;

/** One item's days; left out, it follows `retention.days` (filled in by the transform below). */
const itemDays = integer(1, DEFAULT_RETENTION_DAYS).unwrap().optional();

/**
 * How long finished work is kept, each in days after it ended (docs/readme/data-protection.md).
 * Unresolved work is never pruned, whatever these say.
 */
export const retentionSchema = z
  .strictObject({
    enabled: flag(true),
    /** When the daemon prunes: hourly, off the full hour that schedules favour. */
    schedule: cronExpression.default('17 * * * *'),
    /** Rows one short write transaction removes or reduces, so pruning never holds the lock long. */
    batchSize: integer(1, 500, 10_000),
    days: integer(1, DEFAULT_RETENTION_DAYS),
    /** Finished queue jobs (done, superseded) with their resolved dead letters. */
    jobs: itemDays,
    /** Pull runs; the latest of each list and the last successful pull stay. */
    runs: itemDays,
    /** Older versions in the ledger; the newest of each record stays. */
    versions: itemDays,
    /** Bodies of handled ERP messages; their keys and hashes stay. */
    inboxMessages: itemDays,
    /** Fingerprints of our own writes to the platform. */
    ownWrites: itemDays,
    /** Quarantined records since pulled valid. */
    quarantine: itemDays,
    /** Bodies of Deleted or archived orders and care arrangements; ids, stamps, status stay. */
    endedRecords: itemDays,
    /**
     * The keys that stay of ended records and handled ERP messages, once their bodies went:
     * longer than both `endedRecords` and `inboxMessages`.
     */
    endedKeys: integer(2, DEFAULT_ENDED_KEYS_DAYS),
    /** Day folders of `<inbox>/.archive/`. */
    inboxFiles: itemDays,
    /** Files `homecare-sync backup` made: each is kept this many days at most, */
    backups: itemDays,
    /** and only the newest this many. */
    backupsKept: integer(1, 7),
  })
  .transform(({ days, ...given }) => ({
    ...given,
    days,
    jobs: given.jobs ?? days,
    runs: given.runs ?? days,
    versions: given.versions ?? days,
    inboxMessages: given.inboxMessages ?? days,
    ownWrites: given.ownWrites ?? days,
    quarantine: given.quarantine ?? days,
    endedRecords: given.endedRecords ?? days,
    inboxFiles: given.inboxFiles ?? days,
    backups: given.backups ?? days,
  }))
  .superRefine((retention, context) => {
    for (const item of ['endedRecords', 'inboxMessages'] as const) {
      if (retention.endedKeys > retention[item]) continue;
      context.addIssue({
        code: 'custom',
        path: ['endedKeys'],
        message: `must be more than retention.${item} (${retention[item]}): keys go after the bodies they stand for; raise endedKeys or lower ${item}`,
      });
    }
  });

export type RetentionConfig = z.output<typeof retentionSchema>;
