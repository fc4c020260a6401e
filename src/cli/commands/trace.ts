import type { Command } from 'commander';
import { isPlatformWrite } from '../../queue/index.js';
import { fileLabel } from '../../log/index.js';
import type { PersonalValues } from '../../log/index.js';
import { recordShowPersonal, transaction, type Store } from '../../store/index.js';
import { subjectsOfKey, traceOf, type TraceEvent } from '../../trace/index.js';
import { withStore } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';
import { withShowPersonal } from './personal.js';

export interface TracedRecord {
  resource: string;
  id: string;
  events: TraceEvent[];
}

function tracesOf(store: Store, key: string, personal: PersonalValues): TracedRecord[] {
  return subjectsOfKey(store, key).map((subject) => ({
    resource: subject.resource,
    id: subject.id,
    events: traceOf(store, subject, isPlatformWrite, personal),
  }));
}

/**
 * Who saw the personal values: an operator action on each record traced, and on each job whose
 * texts the masking would have changed (so `queue show` of that job names the look too).
 */
function recordLooks(store: Store, key: string, shown: readonly TracedRecord[]): void {
  const masked = tracesOf(store, key, 'masked');
  const jobs = new Set<number>();
  shown.forEach((record, r) =>
    record.events.forEach((event, e) => {
      const other = masked[r]?.events[e];
      if (event.job !== undefined && other?.what !== event.what) jobs.add(event.job);
    }),
  );
  const subjects = shown.map((record) => `${record.resource}:${record.id}`);
  subjects.push(...[...jobs].map((job) => `job:${job}`));
  for (const subject of subjects) {
    recordShowPersonal(store, { subject, detail: `trace ${keptKey(key)}` });
  }
}

/**
 * The key as the audit keeps it, for good: an ERP file's name (it may be the patient's) by its
 * label, as logs show it; ids and ERP keys as given.
 */
const keptKey = (key: string): string => (/\.[A-Za-z0-9]{1,8}$/.test(key) ? fileLabel(key) : key);

/**
 * Every record `key` names, each with its timeline; none when the database knows no such key.
 * Masked, the command writes nothing; shown, the look is recorded in the same transaction.
 */
export function traceKey(
  options: ConfigOption,
  key: string,
  personal: PersonalValues = 'masked',
): TracedRecord[] {
  if (personal === 'masked') {
    return withStore(options, (store) => tracesOf(store, key, 'masked'), 'read');
  }
  return withStore(options, (store) =>
    transaction(store, () => {
      const shown = tracesOf(store, key, 'shown');
      recordLooks(store, key, shown);
      return shown;
    }),
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

function traceAction(
  key: string,
  options: ConfigOption & { json?: boolean; showPersonal?: boolean },
): void {
  const personal = options.showPersonal === true ? 'shown' : 'masked';
  const records = traceKey(options, key, personal);
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
