import { InvalidArgumentError, type Command } from 'commander';
import { isResourceName, RESOURCE_NAMES, type ResourceName } from '../../contract/index.js';
import { syncOnce, type SyncReport } from '../../app/syncOnce.js';
import type { App } from '../../app/app.js';
import { dryRunOnce } from '../../app/dryRun.js';
import { messageCounts, refusedRows, type FileResult } from '../../erp/inbound/index.js';
import { appDeps, loadedConfigOf, withApp } from '../context.js';
import { dryRunText } from './syncPlan.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

function resourceNames(value: string, previous: ResourceName[] = []): ResourceName[] {
  if (!isResourceName(value)) {
    throw new InvalidArgumentError(
      `"${value}" is not a resource name; one of ${RESOURCE_NAMES.join(', ')}`,
    );
  }
  return [...previous, value];
}

/** What is still not with the ERP, how many, and the command that shows them. */
function deliveryProblems(report: SyncReport): string[] {
  const { undelivered, refused } = report.delivery;
  const lines: string[] = [];
  if (undelivered > 0) {
    lines.push(
      `not yet handed to the ERP: ${undelivered} record version(s) wait for their next try or a missing reference (homecare-sync queue list; status shows why)`,
    );
  }
  if (refused > 0) {
    lines.push(
      `refused by the ERP: ${refused} record version(s) in the dead letters (homecare-sync queue list --dead; queue show <id> for the ERP's answer, queue retry <id> once fixed)`,
    );
  }
  return lines;
}

/** What the operator's pauses held back, and how to let it go. */
function pausedLines({ paused }: SyncReport): string[] {
  const lines: string[] = [];
  if (paused.pulls.length > 0) {
    lines.push(
      `paused, not pulled: ${paused.pulls.join(', ')} (homecare-sync resume pull <resource>)`,
    );
  }
  if (paused.writes.length > 0) {
    const kinds = paused.writes.includes('*') ? 'every kind' : paused.writes.join(', ');
    lines.push(
      `paused, not written to the platform: ${paused.heldJobs} job(s) stay queued (${kinds}; homecare-sync resume push [kind])`,
    );
  }
  return lines;
}

/** What became of one inbox file's messages and rows; undefined for a file still incomplete. */
function inboxFileLine(
  file: FileResult,
): { line: string; accepted: number; refused: number } | undefined {
  const path = `inbox ${file.kind}/${file.file}`;
  switch (file.status) {
    case 'waiting':
      return undefined;
    case 'failed':
      return { line: `${path}: not handled this pass: ${file.reason}`, accepted: 0, refused: 0 };
    case 'rejected':
      return {
        line: `${path}: rejected whole: ${file.reason}; see ${file.report}`,
        accepted: 0,
        refused: 1,
      };
    default: {
      const rows = file.status === 'partial' ? refusedRows(file.problems) : 0;
      const counts = messageCounts({ ...file, refused: rows });
      const report = file.status === 'partial' ? `; see ${file.report}` : '';
      return {
        line: `${path}: ${counts}${report}`,
        accepted: file.accepted,
        refused: rows + file.overtaken,
      };
    }
  }
}

/** The inbox's part of the summary line, and a line per file it took. */
function inboxPart(report: SyncReport): { part: string; lines: string[] } {
  if (report.inbox === undefined) return { part: '', lines: [] };
  const files = report.inbox.files.flatMap((file) => inboxFileLine(file) ?? []);
  const accepted = files.reduce((n, file) => n + file.accepted, 0);
  const refused = files.reduce((n, file) => n + file.refused, 0);
  return {
    part: `, inbox ${accepted} accepted / ${refused} rejected`,
    lines: files.map((file) => file.line),
  };
}

function summary(report: SyncReport): string {
  const pulled = report.pulls.reduce((n, p) => n + p.fresh, 0);
  const failed = report.pulls
    .filter((p) => !p.ok)
    .map((p) => `${p.resource}${p.filter ? `?status=${p.filter}` : ''}: ${p.error}`);
  const { delivered, undelivered, refused } = report.delivery;
  const inbox = inboxPart(report);
  return [
    `sync: ${report.pulls.length} pulls, ${pulled} new record versions; ${delivered} handed to the ERP (${undelivered} not yet, ${refused} refused)${inbox.part}; queue ran ${report.queue.ran}, ${report.queue.waiting} waiting, ${Math.max(0, report.newDeadLetters)} new dead letters`,
    ...inbox.lines,
    ...failed.map((line) => `pull failed: ${line}`),
    ...pausedLines(report),
    ...deliveryProblems(report),
  ].join('\n');
}

interface SyncOptions extends ConfigOption {
  dryRun?: boolean;
}

/** The pass over `names` (all when none): refused for a resource this config does not pull. */
function passOver(names: readonly ResourceName[]): (app: App) => Promise<SyncReport> {
  return (app) => {
    const pulled = app.runner.resources();
    const notPulled = names.filter((name) => !pulled.includes(name));
    // Syncing nothing and exiting 0 would tell the user that resource is in sync.
    if (notPulled.length > 0) {
      throw new CliExit(
        EXIT.usage,
        `not pulled with this config: ${notPulled.join(', ')} (variant ${app.config.platform.variant} has no list of it, or sync.resources.<name>.enabled is false); pulled: ${pulled.join(', ')}`,
      );
    }
    return syncOnce(app, names.length > 0 ? names : undefined);
  };
}

/** `sync --dry-run`: the pass on a copy of the database, its plan printed. */
async function dryRunAction(names: readonly ResourceName[], options: SyncOptions): Promise<void> {
  const loaded = loadedConfigOf(options);
  const report = await dryRunOnce(loaded.config, appDeps(loaded.source), passOver(names));
  process.stdout.write(dryRunText(report));
  if (report.pass.pulls.some((pull) => !pull.ok)) {
    throw new CliExit(
      EXIT.failure,
      'sync --dry-run: some pulls failed (see above); their records are missing from the plan',
    );
  }
}

/** `sync [resource...] [--once] [--dry-run]`: one full pass, then exit. */
export function syncCommand(): Command {
  return commandWithConfig(
    'sync',
    'one full pass (pull, hand to the ERP, acknowledge, read the inbox, drain the queue) and exit',
  )
    .argument(
      '[resource...]',
      'only these resources (platform names, e.g. singleOrder article)',
      resourceNames,
    )
    .option('--once', 'accepted for compatibility; changes nothing: sync is always one pass')
    .option(
      '--dry-run',
      'pull and map, write nothing (no outbox file, no ERP request, no platform write, no checkpoint or database change): print what the pass would hand to the ERP and write to the platform',
    )
    .addHelpText(
      'after',
      '\nsync always runs exactly one pass and exits; `run` is the daemon that keeps going.\nExit code 0 only when nothing failed.',
    )
    .action(async (names: ResourceName[], options: SyncOptions) => {
      if (options.dryRun === true) return dryRunAction(names, options);
      const report = await withApp(options, passOver(names));
      process.stderr.write(`${summary(report)}\n`);
      if (!report.ok)
        throw new CliExit(EXIT.failure, 'sync finished with problems (see above and the log)');
    });
}
