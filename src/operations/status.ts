import type { StorageFigures } from '../readModels/index.js';
// The check's own text, not the check: every command loads this module (cli/program.ts).
import { keptCheckSummary } from '../check/text.js';
import { dryRunCopies } from '../housekeeping/index.js';
import { maskPersonal } from '../log/index.js';
import { DELIVER_PREFIX } from '../queue/index.js';
import {
  countInboxMessages,
  countJobs,
  countOpenDeadJobs,
  countQuarantined,
  countUndelivered,
  deadLettersOf,
  lastOnlineChecks,
  latestRuns,
  listCheckpoints,
  listOpenDeadJobs,
  listRetryingJobs,
  openDeadLetterJobIds,
  operatorActionsOn,
  pausesInForce,
  pauseSubject,
  personalValuesOf,
  quarantineNotes,
  subjectOfJob,
  type StoredJob,
  type Store,
} from '../store/index.js';

/** Where the daemon stands (`status`, the console's health): read from the database only. */

const SHOWN = 20;

/** The record version a `deliver.<resource>` job hands over, as `status` names it. */
function handOverOf(job: StoredJob) {
  const { resource, id, version } = job.payload;
  return { job: job.id, resource, id, version, tries: job.attempts };
}

/**
 * The open dead letter of a refused hand-over: the reason and the ERP's answer, masked as every
 * output is (the ERP's words may quote the record: `queue show <job> --show-personal` shows them).
 */
function refusal(store: Store, job: StoredJob) {
  const letter = deadLettersOf(store, job.id).find((l) => l.resolvedAt === undefined);
  const known = personalValuesOf(store, subjectOfJob(store, job.id));
  return maskPersonal(
    {
      ...handOverOf(job),
      reason: letter?.reason ?? job.lastError,
      httpStatus: letter?.httpStatus,
      answer: letter?.bodyExcerpt,
    },
    known,
  );
}

/** The pauses in force (`*`: the whole direction), with who paused and since when. */
function pausesOf(store: Store) {
  return pausesInForce(store).map((p) => {
    const subject = pauseSubject(p.direction, p.target);
    const by = operatorActionsOn(store, [subject])
      .filter((done) => done.action === 'pause')
      .at(-1);
    return {
      direction: p.direction,
      resource: p.target,
      since: p.since,
      by: by === undefined ? undefined : `${by.osUser} on ${by.host}`,
    };
  });
}

/** Everything `status` reports, read from the database only (the daemon may be running). */
export function statusOf(store: Store, storage: StorageFigures) {
  const runs = latestRuns(store);
  return {
    database: store.path,
    paused: pausesOf(store),
    onlineCheck: keptCheckSummary(lastOnlineChecks(store)),
    checkpoints: listCheckpoints(store).map((checkpoint) => {
      const run = runs.find(
        (r) => r.resource === checkpoint.resource && r.filter === checkpoint.filter,
      );
      return { ...checkpoint, lastRun: run };
    }),
    queue: {
      pending: countJobs(store, 'pending'),
      running: countJobs(store, 'running'),
      dead: countJobs(store, 'dead'),
      openDeadLetters: openDeadLetterJobIds(store).length,
    },
    delivery: {
      undelivered: countUndelivered(store),
      refusedCount: countOpenDeadJobs(store, DELIVER_PREFIX),
      waiting: listRetryingJobs(store, DELIVER_PREFIX, SHOWN).map((job) =>
        maskPersonal(
          { ...handOverOf(job), nextTryAt: job.nextAttemptAt, reason: job.lastError },
          personalValuesOf(store, subjectOfJob(store, job.id)),
        ),
      ),
      refused: listOpenDeadJobs(store, DELIVER_PREFIX, SHOWN).map((job) => refusal(store, job)),
    },
    quarantined: countQuarantined(store),
    quarantinedRecords: quarantineNotes(store, { limit: SHOWN }).map((entry) => ({
      resource: entry.resource,
      id: entry.recordId,
      reason: entry.reason,
      seenAt: entry.seenAt,
    })),
    inbox: countInboxMessages(store),
    storage,
    dryRunCopies: dryRunCopies(store.path),
  };
}

export type Status = ReturnType<typeof statusOf>;
