import { Command, InvalidArgumentError } from 'commander';
import type { JobDetails } from '../../queue/index.js';
import { dropJob, getJob, listJobs, retryAllDead, retryJob } from '../../queue/index.js';
import { supersedingKind } from '../../pushback/index.js';
import {
  currentOperator,
  recordOperatorAction,
  maskedJob,
  recordShowPersonal,
  transaction,
  type Store,
} from '../../store/index.js';
import { withStore, withStoreOrExit } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';
import { personalOf, withShowPersonal } from './personal.js';
import { jobDetailsText, jobTable } from './queueText.js';

function jobId(value: string): number {
  if (/^\d+$/.test(value.trim()) && Number(value) > 0) return Number(value);
  throw new InvalidArgumentError('give the job id (a number) that `queue list` shows');
}

/** A subcommand about one job, by the id `queue list` shows; `[id]` where it may be left out. */
function jobCommand(name: string, description: string, id: '<id>' | '[id]' = '<id>'): Command {
  return commandWithConfig(name, description).argument(id, 'the job id', jobId);
}

function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

function listLimit(value: string): number {
  if (/^\d+$/.test(value.trim()) && Number(value) > 0) return Number(value);
  throw new InvalidArgumentError('give how many jobs to list at most, a whole number above 0');
}

/** A first pull queues a deliver job per record: tens of thousands, more than a terminal shows. */
const TABLE_LIMIT = 100;

interface ListOptions extends ConfigOption {
  dead?: boolean;
  json?: boolean;
  limit?: number;
}

function listAction(options: ListOptions): void {
  const dead = options.dead === true;
  const jobs = withStore(
    options,
    (store) => listJobs(store, { dead }).map((job) => maskedJob(store, job)),
    'read',
  );
  // JSON is for programs: all of it unless a limit is asked for.
  const limit = options.limit ?? (options.json === true ? jobs.length : TABLE_LIMIT);
  const shown = jobs.slice(0, limit);
  if (options.json === true) print(JSON.stringify(shown, null, 2));
  else if (jobs.length === 0) print(dead ? 'no dead letters' : 'the queue is empty');
  else print(jobTable(shown));
  if (jobs.length > shown.length) {
    process.stderr.write(
      `${jobs.length - shown.length} more job(s) not listed, ${jobs.length} in all; --limit <n> lists more\n`,
    );
  }
}

interface ShowOptions extends ConfigOption {
  json?: boolean;
  showPersonal?: boolean;
}

/** The job masked (reading only), or as stored with the look recorded in the same transaction. */
function jobToShow(options: ShowOptions, id: number): JobDetails | undefined {
  if (personalOf(options) === 'masked') {
    return withStore(options, (store) => {
      const job = getJob(store, id);
      return job === undefined ? undefined : maskedJob(store, job);
    });
  }
  return withStoreOrExit(options, (store) =>
    transaction(store, () => {
      const job = getJob(store, id);
      if (job !== undefined)
        recordShowPersonal(store, { subject: `job:${id}`, detail: `queue show ${id}` });
      return job;
    }),
  );
}

function showAction(id: number, options: ShowOptions): void {
  const job = jobToShow(options, id);
  if (job === undefined) {
    throw new CliExit(
      EXIT.failure,
      `no job ${id} in the queue; \`homecare-sync queue list\` shows the ids`,
    );
  }
  const personal = personalOf(options);
  print(
    options.json === true
      ? JSON.stringify({ ...job, personal }, null, 2)
      : jobDetailsText(job, personal),
  );
}

/** An operator's `change` to job `id`, kept with the `action` that names it or not at all. */
function changeJob(
  options: ConfigOption,
  id: number,
  action: 'retry' | 'drop',
  change: (store: Store) => void,
): void {
  withStoreOrExit(options, (store) =>
    transaction(store, () => {
      change(store);
      recordOperatorAction(store, { action, subject: `job:${id}` }, currentOperator());
    }),
  );
}

function retryAction(
  command: Command,
  id: number | undefined,
  options: ConfigOption & { allDead?: boolean },
): void {
  if ((id === undefined) === (options.allDead !== true)) {
    command.error('error: give either a job id or --all-dead', { exitCode: EXIT.usage });
  }
  if (id !== undefined) {
    changeJob(options, id, 'retry', (store) => retryJob(store, id, supersedingKind));
    print(`job ${id} is pending again, due now; it runs on the daemon's next queue pass`);
    return;
  }
  const result = withStoreOrExit(options, (store) => {
    const retried = retryAllDead(store, supersedingKind);
    transaction(store, () => {
      for (const id of retried.retried) {
        const action = { action: 'retry', subject: `job:${id}`, detail: '--all-dead' } as const;
        recordOperatorAction(store, action, currentOperator());
      }
    });
    return retried;
  });
  print(
    result.retried.length === 0
      ? 'no dead letters to retry'
      : `${result.retried.length} dead job(s) pending again: ${result.retried.join(', ')}`,
  );
  for (const refused of result.refused) print(`not retried: ${refused.reason}`);
}

function dropAction(id: number, options: ConfigOption): void {
  changeJob(options, id, 'drop', (store) => dropJob(store, id));
  print(
    `job ${id} dropped: its dead letter is resolved; the job stays in the database for the record`,
  );
}

/** `queue list|show|retry|drop`: the durable retry queue and its dead letters. */
export function queueCommand(): Command {
  const list = commandWithConfig(
    'list',
    'list jobs still to run and dead letters, or with --dead only the dead letters',
  )
    .option('--dead', 'list only dead letters: jobs that failed for good, with the reason')
    .option('--json', 'print JSON instead of a table')
    .option(
      '--limit <n>',
      `list at most n jobs, oldest first (default ${TABLE_LIMIT} for the table, all for --json)`,
      listLimit,
    )
    .action(listAction);
  const show = withShowPersonal(
    jobCommand(
      'show',
      'show one job: payload, attempts, last error, dead letters with the answers, operator actions; personal values masked',
    ).option('--json', 'print JSON'),
    'the personal values (payload, errors, answers)',
  ).action(showAction);
  const retry = jobCommand(
    'retry',
    'put a dead letter (or all of them) back in the queue, tries counted from zero',
    '[id]',
  )
    .option('--all-dead', 'retry every open dead letter')
    .action(function (
      this: Command,
      id: number | undefined,
      options: ConfigOption & { allDead?: boolean },
    ) {
      retryAction(this, id, options);
    });
  const drop = jobCommand(
    'drop',
    'give a dead letter up; the job stays in the database for the record',
  ).action(dropAction);
  return new Command('queue')
    .description('the retry queue: jobs waiting to be sent to the platform, and dead letters')
    .addCommand(list)
    .addCommand(show)
    .addCommand(retry)
    .addCommand(drop);
}
