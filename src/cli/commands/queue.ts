import { Command, InvalidArgumentError } from 'commander';
import { notAvailableYet } from '../exit.js';
import { commandWithConfig } from '../options.js';

function jobId(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('give the job id `queue list` shows');
  return value;
}

/** `queue list|show|retry|drop`: the durable retry queue and its dead letters. */
export function queueCommand(): Command {
  const list = commandWithConfig('list', 'list queued jobs, or the dead letters with --dead')
    .option('--dead', 'list dead letters: jobs that failed for good, with the reason')
    .action(notAvailableYet('queue list'));
  const show = commandWithConfig('show', 'show one job with its payload, attempts and last error')
    .argument('<id>', 'the job id', jobId)
    .action(notAvailableYet('queue show'));
  const retry = commandWithConfig('retry', 'put a dead letter (or all of them) back in the queue')
    .argument('[id]', 'the job id', jobId)
    .option('--all-dead', 'retry every dead letter')
    .action(function (this: Command, id: string | undefined, options: { allDead?: boolean }) {
      if ((id === undefined) === (options.allDead !== true)) {
        this.error('error: give either a job id or --all-dead', { exitCode: 2 });
      }
      notAvailableYet('queue retry')();
    });
  const drop = commandWithConfig('drop', 'remove one job or dead letter for good')
    .argument('<id>', 'the job id', jobId)
    .action(notAvailableYet('queue drop'));
  return new Command('queue')
    .description('the retry queue: jobs waiting to be sent to the platform, and dead letters')
    .addCommand(list)
    .addCommand(show)
    .addCommand(retry)
    .addCommand(drop);
}
