import type { Command } from 'commander';
import type { DryRunCopy } from '../../housekeeping/index.js';
import type { Run } from '../../store/index.js';
import { storageFigures, inboxOf, type StorageFigures } from '../../readModels/index.js';
import { statusOf, type Status } from '../../operations/index.js';
// The check's own text, not the check: every command loads this module (program.ts).
import { keptCheckLines } from '../../check/text.js';
import { bytesText } from '../../shared/bytes.js';
import { withStoreAsync } from '../context.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

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

function text(status: Status): string {
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
function quarantineLines(status: Status): string[] {
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
function pausedLines(paused: Status['paused']): string[] {
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
export function queueLine(q: Status['queue']): string {
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

function deliveryLines(delivery: Status['delivery']): string[] {
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
