import type { Command } from 'commander';
import type { PersonalValues } from '../../log/index.js';
import { handOversOf, traceRecords, type TracedRecord } from '../../operations/index.js';
import { currentOperator } from '../../store/index.js';
import { withStoreAsync } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';
import { withShowPersonal } from './personal.js';

export type { TracedRecord };

/**
 * Every record `key` names, each with its timeline; none when the database knows no such key.
 * Masked, the command writes nothing; shown, the look is recorded in the same transaction.
 */
export function traceKey(
  options: ConfigOption,
  key: string,
  personal: PersonalValues = 'masked',
): Promise<TracedRecord[]> {
  return withStoreAsync(
    options,
    async (store, config) => {
      const reading = { personal, handOvers: await handOversOf(config) };
      return traceRecords(store, key, reading, { by: currentOperator(), via: 'trace' });
    },
    'remove',
    personal === 'masked' ? 'read' : 'write',
  );
}

/** The timelines as text: a heading per record, a line per event, a `now:` line per wait. */
export function renderTrace(records: readonly TracedRecord[]): string {
  return records
    .map((record) => {
      const lines = record.events.map((event) => `  ${event.at}  ${event.what}`);
      const none = lines.length === 0 ? ['  (nothing recorded about it yet)'] : [];
      const waiting = record.waiting.map((why) => `  now: ${why}`);
      return [`${record.resource} ${record.id}`, ...lines, ...none, ...waiting].join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

async function traceAction(
  key: string,
  options: ConfigOption & { json?: boolean; showPersonal?: boolean },
): Promise<void> {
  const personal = options.showPersonal === true ? 'shown' : 'masked';
  const records = await traceKey(options, key, personal);
  if (records.length === 0) {
    throw new CliExit(
      EXIT.failure,
      `trace: nothing in the database is known by "${key}"; give a platform _id, a salesId, an erpOrderNumber, a customerId, a customerNumber, a serialNumber, an outbox or inbox file name, the label a log gave a file (#5d41402a.json), or a job id (see \`homecare-sync queue list\`)`,
    );
  }
  process.stdout.write(
    options.json
      ? `${JSON.stringify({ key, personal, records }, null, 2)}\n`
      : renderTrace(records),
  );
}

/** `trace <key> [--json]`: one record's timeline, from the database only. */
export function traceCommand(): Command {
  const command = commandWithConfig(
    'trace',
    "one record's timeline: every version pulled and the fields it changed, every hand-over to the ERP, the jobs about it with their tries and dead letters, the ERP messages they came from, our last write to it",
  )
    .argument(
      '<key>',
      'a platform _id, salesId, erpOrderNumber, customerId, customerNumber, serialNumber, outbox or inbox file name (or the label logs give it), or job id',
    )
    .option('--json', 'print JSON instead of text');
  return withShowPersonal(
    command,
    'the personal values (names, addresses, phone numbers) in errors and answers, and the ERP’s file names,',
  ).action(traceAction);
}
