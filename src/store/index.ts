/**
 * Mechanism: SQLite (better-sqlite3, WAL). The tables and their statements: migrations,
 * checkpoints, mirror, ledger, queue tables, own writes, retention's cursors. What is done with
 * them over time (retention, backups, erasure) is housekeeping's (src/housekeeping/).
 */
export { openStore, WAL_CHECKPOINT_PAGES, WAL_SIZE_LIMIT_BYTES } from './open.js';
export type { OpenStoreOptions } from './open.js';
export type { Store, Database } from './store.js';
export { ROOM_QUIET_MS, storedTime } from './store.js';
export { STORE_FULL } from './diskFull.js';
export { transaction, type Durable } from './transaction.js';
export { APPLICATION_ID, checkIntegrity, SchemaBehindError, schemaVersion } from './migrate.js';
export { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.js';
export type { Migration } from './migrations/index.js';
export * from './checkpoints.js';
export * from './runs.js';
export * from './mirror.js';
export * from './ledger.js';
export * from './quarantine.js';
export * from './writerLock.js';
export * from './queue.js';
export * from './queueRows.js';
export * from './deadLetters.js';
export * from './inbox.js';
export {
  overtakenText,
  overtakingOf,
  type MessageNaming,
  type OvertakenRow,
  type Overtaking,
} from './overtaken.js';
export * from './stalls.js';
export * from './ownWrites.js';
export * from './handOver.js';
export * from './reducedRecord.js';
export * from './retentionCursors.js';
export * from './space.js';
export * from './subjects.js';
export * from './personalOf.js';
export * from './operatorActions.js';
export * from './consoleSessions.js';
export * from './pauses.js';
export * from './jobKeys.js';
export * from './inboxReplay.js';
export * from './onlineChecks.js';
