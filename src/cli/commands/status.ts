import type { Command } from 'commander';
import {
  countInboxMessages,
  countJobs,
  latestRuns,
  listCheckpoints,
  countQuarantined,
  openDeadLetterJobIds,
  countUndelivered,
  rejectedVersions,
  waitingVersions,
  type Store,
} from '../../store/index.js';
import { withStore } from '../context.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

const SHOWN = 20;

/** Everything `status` reports, read from the database only (the daemon may be running). */
export function statusOf(store: Store) {
  const runs = latestRuns(store);
  return {
    database: store.path,
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
      waiting: waitingVersions(store, SHOWN).map((e) => ({
        resource: e.resource,
        id: e.id,
        version: e.version,
        waitingFor: e.waitingFor,
      })),
      refused: rejectedVersions(store, SHOWN).map((e) => ({
        resource: e.resource,
        id: e.id,
        version: e.version,
        reason: e.rejection,
      })),
    },
    quarantined: countQuarantined(store),
    inbox: countInboxMessages(store),
  };
}

function text(status: ReturnType<typeof statusOf>): string {
  const lines = [
    `database ${status.database}`,
    '',
    'checkpoints (resource, filter, watermark, last run):',
  ];
  for (const c of status.checkpoints) {
    const run = c.lastRun;
    const outcome =
      run?.ok === false
        ? `FAILED ${run.error ?? ''}`
        : run?.ok
          ? `ok, ${run.fetched ?? 0} fetched, ${run.new ?? 0} new`
          : 'no run yet';
    lines.push(
      `  ${c.resource.padEnd(22)} ${(c.filter || '-').padEnd(12)} ${(c.watermark ?? '-').padEnd(25)} ${run?.finishedAt ?? '-'} ${outcome}`,
    );
  }
  const q = status.queue;
  lines.push(
    '',
    `queue: ${q.pending} pending, ${q.running} running, ${q.dead} dead (${q.openDeadLetters} open dead letters: queue list --dead)`,
  );
  lines.push(`delivery: ${status.delivery.undelivered} record versions not yet handed to the ERP`);
  for (const w of status.delivery.waiting)
    lines.push(`  waiting: ${w.resource} ${w.id} (${w.version}): ${w.waitingFor ?? ''}`);
  for (const r of status.delivery.refused) {
    lines.push(
      `  refused by the ERP (in the dead letters): ${r.resource} ${r.id} (${r.version}): ${r.reason ?? ''}`,
    );
  }
  lines.push(`quarantined records: ${status.quarantined}`);
  const inbox = Object.entries(status.inbox)
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  lines.push(`inbox messages: ${inbox || 'none'}`);
  return `${lines.join('\n')}\n`;
}

/** `status [--json]`. */
export function statusCommand(): Command {
  return commandWithConfig(
    'status',
    'show checkpoints, the last run per resource, queue depth and dead letters',
  )
    .option('--json', 'print JSON instead of a table')
    .action((options: ConfigOption & { json?: boolean }) => {
      const status = withStore(options, (store) => statusOf(store));
      process.stdout.write(options.json ? `${JSON.stringify(status, null, 2)}\n` : text(status));
    });
}
