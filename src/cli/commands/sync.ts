import { InvalidArgumentError, type Command } from 'commander';
import { isResourceName, RESOURCE_NAMES, type ResourceName } from '../../contract/index.js';
import { syncOnce, type SyncReport } from '../../app/syncOnce.js';
import { withApp } from '../context.js';
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

function summary(report: SyncReport): string {
  const pulled = report.pulls.reduce((n, p) => n + p.fresh, 0);
  const failed = report.pulls
    .filter((p) => !p.ok)
    .map((p) => `${p.resource}${p.filter ? `?status=${p.filter}` : ''}: ${p.error}`);
  const { delivered, undelivered, refused } = report.delivery;
  const inbox = report.inbox
    ? `, inbox ${report.inbox.counts.accepted} accepted / ${report.inbox.counts.rejected} rejected`
    : '';
  return [
    `sync: ${report.pulls.length} pulls, ${pulled} new record versions; ${delivered} handed to the ERP (${undelivered} not yet, ${refused} refused)${inbox}; queue ran ${report.queue.ran}, ${report.queue.waiting} waiting, ${Math.max(0, report.newDeadLetters)} new dead letters`,
    ...failed.map((line) => `pull failed: ${line}`),
    ...deliveryProblems(report),
  ].join('\n');
}

/** `sync [resource...] [--once]`: one full pass, then exit. */
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
    .addHelpText(
      'after',
      '\nsync always runs exactly one pass and exits; `run` is the daemon that keeps going.\nExit code 0 only when nothing failed.',
    )
    .action(async (names: ResourceName[], options: ConfigOption) => {
      const report = await withApp(options, (app) => {
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
      });
      process.stderr.write(`${summary(report)}\n`);
      if (!report.ok)
        throw new CliExit(EXIT.failure, 'sync finished with problems (see above and the log)');
    });
}
