import { Command, InvalidArgumentError } from 'commander';
import {
  actOnDeadLetters,
  dropDeadLetter,
  retryDeadLetter,
  type DeadLetterAction,
} from '../../operations/index.js';
import type { JobDetails } from '../../queue/index.js';
import { getJob, listJobs } from '../../queue/index.js';
import { currentOperator, maskedJob, recordShowPersonal, transaction } from '../../store/index.js';
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

/** An operator's action on one dead letter; a refusal exits 1 with its reason. */
function actOnOne(options: ConfigOption, id: number, action: DeadLetterAction): void {
  withStoreOrExit(options, (store) =>
    action === 'retry'
      ? retryDeadLetter(store, id, currentOperator())
      : dropDeadLetter(store, id, currentOperator()),
  );
}

interface BulkOptions extends ConfigOption {
  allDead?: boolean;
  kind?: string;
}

/** Every open dead letter (of `--kind`), each kept as an operator action naming the flags. */
function actOnAll(options: BulkOptions, action: DeadLetterAction): void {
  const flags = options.kind === undefined ? '--all-dead' : `--all-dead --kind ${options.kind}`;
  const scope = { kind: options.kind, cap: Number.MAX_SAFE_INTEGER };
  const result = withStoreOrExit(options, (store) =>
    actOnDeadLetters(store, action, scope, currentOperator(), flags),
  );
  const of = options.kind === undefined ? '' : ` of kind ${options.kind}`;
  if (result.done.length === 0) print(`no dead letters${of} to ${action}`);
  else if (action === 'retry') {
    print(`${result.done.length} dead job(s) pending again: ${result.done.join(', ')}`);
  } else {
    print(`${result.done.length} dead letter(s) dropped: ${result.done.join(', ')}`);
  }
  for (const refused of result.refused)
    print(`not ${action === 'retry' ? 'retried' : 'dropped'}: ${refused.reason}`);
}

/** `retry|drop <id>` or `retry|drop --all-dead [--kind <kind>]`. */
function deadLetterAction(
  command: Command,
  action: DeadLetterAction,
  id: number | undefined,
  options: BulkOptions,
): void {
  if (options.kind !== undefined && options.allDead !== true) {
    command.error('error: --kind goes with --all-dead', { exitCode: EXIT.usage });
  }
  if ((id === undefined) === (options.allDead !== true)) {
    command.error('error: give either a job id or --all-dead', { exitCode: EXIT.usage });
  }
  if (id === undefined) {
    actOnAll(options, action);
    return;
  }
  actOnOne(options, id, action);
  print(
    action === 'retry'
      ? `job ${id} is pending again, due now; it runs on the daemon's next queue pass`
      : `job ${id} dropped: its dead letter is resolved; the job stays in the database for the record`,
  );
}

/** `retry` or `drop`, of one dead letter or (`--all-dead`) of every open one. */
function deadLetterCommand(action: DeadLetterAction, description: string): Command {
  return jobCommand(action, description, '[id]')
    .option('--all-dead', `${action} every open dead letter`)
    .option(
      '--kind <kind>',
      'with --all-dead: only the dead letters of this job kind (queue list shows the kinds)',
    )
    .action(function (this: Command, id: number | undefined, options: BulkOptions) {
      deadLetterAction(this, action, id, options);
    });
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
  const retry = deadLetterCommand(
    'retry',
    'put a dead letter (or all of them) back in the queue, tries counted from zero',
  );
  const drop = deadLetterCommand(
    'drop',
    'give a dead letter (or all of them) up; the job stays in the database for the record',
  );
  return new Command('queue')
    .description('the retry queue: jobs waiting to be sent to the platform, and dead letters')
    .addCommand(list)
    .addCommand(show)
    .addCommand(retry)
    .addCommand(drop);
}
