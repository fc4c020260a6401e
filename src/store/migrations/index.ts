/**
 * The schema, as an ordered list of steps: step n (the file numbered n here) brings the database
 * to schema version n. Steps are only ever appended; a released step never changes. Times are
 * ISO 8601 UTC text as `Date.toISOString()` writes it, so they sort as text. Applied by
 * store/migrate.ts.
 */
import * as step01 from './01-initial.js';
import * as step02 from './02-ledgerRecords.js';
import * as step03 from './03-deliveryRetries.js';
import * as step04 from './04-deliveryJobs.js';
import * as step05 from './05-ownWrites.js';
import * as step06 from './06-recordsOnce.js';
import * as step07 from './07-pendingInOrder.js';
import * as step08 from './08-lastSuccess.js';
import * as step09 from './09-openPerEntity.js';
import * as step10 from './10-jobsByState.js';
import * as step11 from './11-retryAfterUntil.js';
import * as step12 from './12-retention.js';
import * as step13 from './13-operatorActions.js';
import * as step14 from './14-endedKeys.js';
import * as step15 from './15-deadAckStates.js';
import * as step16 from './16-pauses.js';
import * as step17 from './17-wholeRuns.js';
import * as step18 from './18-restorePoint.js';
import * as step19 from './19-versionChanges.js';
import * as step20 from './20-jobAnswers.js';
import * as step21 from './21-onlineChecks.js';
import * as step22 from './22-messageIdentity.js';
import * as step23 from './23-jobsByKind.js';
import * as step24 from './24-consoleSearch.js';

export interface Migration {
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  step01,
  step02,
  step03,
  step04,
  step05,
  step06,
  step07,
  step08,
  step09,
  step10,
  step11,
  step12,
  step13,
  step14,
  step15,
  step16,
  step17,
  step18,
  step19,
  step20,
  step21,
  step22,
  step23,
  step24,
];

/** The schema version this build writes and understands. */
export const SCHEMA_VERSION = MIGRATIONS.length;
