import type { Command } from 'commander';
import { subjectsOfKey, traceOf, type TraceEvent, type TraceSubject } from '../../store/index.js';
import { withStore } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

export interface TracedRecord {
  resource: string;
  id: string;
  events: TraceEvent[];
}

/** Every record `key` names, each with its timeline; none when the database knows no such key. */
export function traceKey(options: ConfigOption, key: string): TracedRecord[] {
  return withStore(options, (store) =>
    subjectsOfKey(store, key).map((subject: TraceSubject) => ({
      resource: subject.resource,
      id: subject.id,
      events: traceOf(store, subject),
    })),
  );
}

/** The timelines as text: a heading per record, a line per event. */
export function renderTrace(records: readonly TracedRecord[]): string {
  return records
    .map((record) => {
      const lines = record.events.map((event) => `  ${event.at}  ${event.what}`);
      const none = lines.length === 0 ? ['  (nothing recorded about it yet)'] : [];
      return [`${record.resource} ${record.id}`, ...lines, ...none].join('\n');
    })
    .join('\n\n')
    .concat('\n');
}

function traceAction(key: string, options: ConfigOption & { json?: boolean }): void {
  const records = traceKey(options, key);
  if (records.length === 0) {
    throw new CliExit(
      EXIT.failure,
      `trace: nothing in the database is known by "${key}"; give a platform _id, a salesId, a customerId, a customerNumber, a serialNumber, an outbox or inbox file name, or a job id (see \`homecare-sync queue list\`)`,
    );
  }
  process.stdout.write(
    options.json ? `${JSON.stringify({ key, records }, null, 2)}\n` : renderTrace(records),
  );
}

/** `trace <key> [--json]`: one record's timeline, from the database only. */
export function traceCommand(): Command {
  return commandWithConfig(
    'trace',
    "one record's timeline: every version pulled, every hand-over to the ERP, the jobs about it with their tries and dead letters, the ERP messages they came from, our last write to it",
  )
    .argument(
      '<key>',
      'a platform _id, salesId, customerId, customerNumber, serialNumber, outbox or inbox file name, or job id',
    )
    .option('--json', 'print JSON instead of text')
    .action(traceAction);
}
