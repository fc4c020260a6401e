import { Command } from 'commander';
import { replayInboxMessage, type Replayed } from '../../operations/replay.js';
import { currentOperator } from '../../store/index.js';
import { withStoreAsync } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';
import { inboxCheckCommand } from './inboxCheck.js';

function replayLine(replay: Replayed): string {
  const { first } = replay;
  const firstJob = replay.firstJobId === undefined ? '' : `, job ${replay.firstJobId}`;
  return `${replay.kind} ${first.name} (first received ${first.receivedAt}${firstJob}) queued again as job ${replay.jobId} (${replay.entityKey})`;
}

async function replayAction(given: string, options: ConfigOption): Promise<void> {
  const outcome = await withStoreAsync(options, (store, config) =>
    replayInboxMessage(store, config, given, { cwd: process.cwd(), operator: currentOperator() }),
  );
  if (!outcome.ok) throw new CliExit(EXIT.failure, `inbox replay: ${outcome.refused}`);
  const lines = outcome.replays.map(replayLine);
  const traced = outcome.replays[0]?.first.name ?? given;
  process.stdout.write(
    `replayed ${outcome.what}:\n  ${lines.join('\n  ')}\nthe daemon writes it at its next queue pass (or \`homecare-sync sync\`); what the platform holds already is not sent again. \`homecare-sync trace ${traced}\` shows both messages\n`,
  );
}

/** `inbox replay <file>`: one archived message (or kept ERP request) queued again. */
export function inboxReplayCommand(): Command {
  return commandWithConfig(
    'replay',
    'queue one archived inbox message again, as a new message linked to the first (shown together by trace; audited)',
  )
    .argument(
      '<file>',
      'a file of <inbox>/.archive/<kind>/<day>/ (its path or its name), or the Idempotency-Key of a POST /erp/<kind> request',
    )
    .action(replayAction);
}

/** `inbox …`: the ERP's messages. */
export function inboxCommand(): Command {
  return new Command('inbox')
    .description("the ERP's messages: check a file before dropping it, replay one")
    .addCommand(inboxCheckCommand())
    .addCommand(inboxReplayCommand());
}
