import type { Command } from 'commander';
import { maskPersonal } from '../../log/index.js';
import { DELIVER_PREFIX } from '../../queue/index.js';
import {
  countInboxMessages,
  countJobs,
  countOpenDeadJobs,
  latestRuns,
  listCheckpoints,
  listOpenDeadJobs,
  listRetryingJobs,
  countQuarantined,
  quarantineNotes,
  deadLettersOf,
  openDeadLetterJobIds,
  countUndelivered,
  lastOnlineChecks,
  operatorActionsOn,
  pausesInForce,
  pauseSubject,
  personalValuesOf,
  subjectOfJob,
  type Run,
  type StoredJob,
  type Store,
} from '../../store/index.js';
import { dryRunCopies, type DryRunCopy } from '../../housekeeping/index.js';
import { storageFigures, inboxOf, type StorageFigures } from '../../readModels/index.js';
// The check's own text, not the check: every command loads this module (program.ts).
import { keptCheckLines, keptCheckSummary } from '../../check/text.js';
import { bytesText } from '../../shared/bytes.js';
import { withStoreAsync } from '../context.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

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

/** Each dry-run copy beside the database: each holds every patient's data while it is there. */
function dryRunLines(copies: readonly DryRunCopy[]): string[] {
  return copies.map((copy) =>
    copy.running
      ? `dry-run copy ${copy.path}: a dry run is running (process ${copy.pid}); removed when it ends`
      : `dry-run copy ${copy.path}: left by a dry run that ended (process ${copy.pid}); removed at the start of the next command that opens the database`,
  );
}

/** A list's latest run as `status` prints it; a pull under way has a row from its first commit. */
export function runOutcome(run: Run | undefined): string {
  if (run === undefined) return 'no run yet';
  if (run.finishedAt === undefined) return `running since ${run.startedAt}`;
  return run.ok === true
    ? `ok, ${run.fetched ?? 0} fetched, ${run.new ?? 0} new`
    : `FAILED ${run.error ?? ''}`;
}

function text(status: ReturnType<typeof statusOf>): string {
  const lines = [`database ${status.database}`, ...pausedLines(status.paused)];
  lines.push(...keptCheckLines(status.onlineCheck?.checks ?? []));
  lines.push('', 'checkpoints (resource, filter, watermark, last run):');
  for (const c of status.checkpoints) {
    const run = c.lastRun;
    lines.push(
      `  ${c.resource.padEnd(22)} ${(c.filter || '-').padEnd(12)} ${(c.watermark ?? '-').padEnd(25)} ${run?.finishedAt ?? '-'} ${runOutcome(run)}`,
    );
  }
  lines.push('', queueLine(status.queue));
  lines.push(...deliveryLines(status.delivery));
  lines.push(...quarantineLines(status));
  const inbox = Object.entries(status.inbox)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  lines.push(`inbox messages: ${inbox || 'none'}`);
  lines.push('', ...storageLines(status.storage), ...dryRunLines(status.dryRunCopies));
  return `${lines.join('\n')}\n`;
}

/** The count, then the latest quarantined records, each by resource, `_id`, when and why. */
function quarantineLines(status: ReturnType<typeof statusOf>): string[] {
  const shown = status.quarantinedRecords.map(
    (entry) =>
      `  ${entry.resource.padEnd(22)} ${entry.id ?? '(no _id)'} ${entry.seenAt}: ${entry.reason}`,
  );
  const more = status.quarantined - shown.length;
  return [
    `quarantined records: ${status.quarantined}${shown.length > 0 ? ' (not handed to the ERP; the latest first):' : ''}`,
    ...shown,
    ...(more > 0 ? [`  … and ${more} more`] : []),
  ];
}

/** One line per pause in force, with the command that lifts it; none when nothing is paused. */
function pausedLines(paused: ReturnType<typeof statusOf>['paused']): string[] {
  return paused.map((p) => {
    const all = p.resource === '*';
    const what =
      p.direction === 'pull'
        ? `pulls of ${all ? 'every resource' : p.resource}`
        : `platform writes of ${all ? 'every kind' : p.resource}`;
    const by = p.by === undefined ? '' : ` by ${p.by}`;
    const resume = `homecare-sync resume ${p.direction}${all ? '' : ` ${p.resource}`}`;
    return `PAUSED: ${what} since ${p.since}${by} (${resume})`;
  });
}

/**
 * The queue in words that need no manual: a dead job either waits for the operator (its dead
 * letter is open) or was dropped by one (kept for the trace until retention.jobs).
 */
export function queueLine(q: ReturnType<typeof statusOf>['queue']): string {
  const counts = `queue: ${q.pending} pending, ${q.running} running, ${q.dead} dead`;
  if (q.dead === 0 && q.openDeadLetters === 0) return counts;
  const dropped = Math.max(0, q.dead - q.openDeadLetters);
  return `${counts}: ${q.openDeadLetters} open (needs you: queue list --dead, then queue retry or queue drop), ${dropped} dropped (kept for the trace until retention.jobs)`;
}

/**
 * Made at the first use, not when the module loads: every command loads this one (the program
 * registers them all), and a number format loads ICU's number data, ~5 MiB of the daemon's RSS.
 */
let grouping: Intl.NumberFormat | undefined;
const grouped = (n: number) => (grouping ??= new Intl.NumberFormat('en-US')).format(n);

/** Where the space goes: the files, the rows per table, the oldest item each rule keeps. */
function storageLines(storage: StorageFigures): string[] {
  const archive =
    storage.archive === undefined ? '' : `, inbox archive ${bytesText(storage.archiveBytes)}`;
  const free = storage.freePages * storage.pageSize;
  const rows = Object.entries(storage.rows)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${table} ${grouped(n)}`)
    .join(', ');
  const oldest = Object.entries(storage.oldest)
    .flatMap(([item, at]) => (at === undefined ? [] : [`${item} ${at}`]))
    .join(', ');
  return [
    `storage: database ${bytesText(storage.databaseBytes)} (${bytesText(free)} free inside, auto-vacuum ${storage.autoVacuum}), WAL ${bytesText(storage.walBytes)}${archive}`,
    `  rows: ${rows || 'none'}`,
    `  oldest kept (retention): ${oldest || 'nothing yet'}`,
  ];
}

function deliveryLines(delivery: ReturnType<typeof statusOf>['delivery']): string[] {
  const lines = [
    `delivery: ${delivery.undelivered} record versions not yet handed to the ERP, ${delivery.refusedCount} of them refused (queue list --dead)`,
  ];
  for (const w of delivery.waiting) {
    lines.push(
      `  waiting (job ${w.job}, ${w.tries} tries, next at ${w.nextTryAt}): ${String(w.resource)} ${String(w.id)} (${String(w.version)}): ${w.reason ?? ''}`,
    );
  }
  for (const r of delivery.refused) {
    const status = r.httpStatus === undefined ? '' : ` HTTP ${r.httpStatus}`;
    const answer = r.answer === undefined ? '' : `; the ERP answered: ${r.answer}`;
    lines.push(
      `  refused${status} (job ${r.job}, queue retry ${r.job} once fixed): ${String(r.resource)} ${String(r.id)} (${String(r.version)}): ${r.reason ?? ''}${answer}`,
    );
  }
  return lines;
}

/** `status [--json]`. */
export function statusCommand(): Command {
  return commandWithConfig(
    'status',
    'show checkpoints, the last run per resource, queue depth and dead letters',
  )
    .option('--json', 'print JSON instead of a table')
    .action(async (options: ConfigOption & { json?: boolean }) => {
      // A look: the copies killed dry runs left are listed here, removed by the next command.
      const status = await withStoreAsync(
        options,
        async (store, config) => statusOf(store, await storageFigures(store, inboxOf(config))),
        'keep',
      );
      process.stdout.write(options.json ? `${JSON.stringify(status, null, 2)}\n` : text(status));
    });
}
