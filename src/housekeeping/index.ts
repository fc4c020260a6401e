/**
 * Mechanism: housekeeping, what is done over time with what the store keeps. Retention
 * (`retention/`: the policy as a table of sweeps, one stepper, the scheduled pass over the
 * database, the inbox's archive, backups and dry-run copies), backups (`backup/`: the copy and
 * the restore point it carries), erasure on request (`erasure/`: `forget`), and the copies of
 * the database `sync --dry-run` works on.
 */
export * from './backup/backup.js';
export { clearRestorePoint, restorePointOf } from './backup/restorePoint.js';
export * from './dryRunCopies.js';
export * from './erasure/erasure.js';
export * from './retention/pass.js';
export * from './retention/prune.js';
