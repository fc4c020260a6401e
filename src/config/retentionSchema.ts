import { z } from 'zod';
import { cronExpression, flag, integer } from './fields.js';

/** What is kept this many days by default (GDPR Art. 5(1)(e): no longer than needed). */
export const DEFAULT_RETENTION_DAYS = 30;

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
  }));

export type RetentionConfig = z.output<typeof retentionSchema>;
