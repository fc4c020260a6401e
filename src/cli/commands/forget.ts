import path from 'node:path';
import { Command } from 'commander';
import { fileLabel } from '../../log/index.js';
import {
  dryRunCopies,
  erasePatient,
  removeStaleDryRuns,
  type DryRunCopy,
  type ErasureReport,
  type ErasureSubject,
  type UnresolvedWork,
} from '../../housekeeping/index.js';
import { whileNoDaemonRuns, withStore } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

interface ForgetOptions extends ConfigOption {
  customerId?: boolean;
  id?: boolean;
  force?: boolean;
}

/** How the command line names the patient: by a flag, else either way (namedPatient). */
function subjectOf(value: string, options: ForgetOptions): ErasureSubject {
  if (options.customerId === true && options.id === true) {
    throw new CliExit(EXIT.usage, 'forget: give --customer-id or --id, not both');
  }
  const by = options.customerId === true ? 'customerId' : options.id === true ? 'id' : 'either';
  return { by, value };
}

/** The patient as the messages name it. */
function named(subject: ErasureSubject): string {
  if (subject.by === 'id') return `patient ${subject.value}`;
  if (subject.by === 'customerId') return `patient with customerId ${subject.value}`;
  return `patient with the _id or customerId ${subject.value}`;
}

/**
 * Erasure rebuilds the file (VACUUM), which needs it to itself, and a running daemon's next pull
 * or job could write the data again meanwhile.
 */
const FORGET_REFUSED = {
  command: 'forget',
  stopFirst:
    'erasure rebuilds the database file and needs it to itself: stop the daemon (SIGTERM), run forget, then start it again',
};

function refusal(subject: string, work: UnresolvedWork): string {
  return [
    `forget refused: ${subject} has unresolved work, which erasure would give up:`,
    ...work.jobs.map(
      (id) => `  queue job ${id} (pending, running or dead with an open dead letter)`,
    ),
    ...work.versions.map((key) => `  version ${key} (not yet handed to the ERP or acknowledged)`),
    ...work.messages.map((id) => `  ERP message ${id} (not yet handled)`),
    'let the work finish (or drop its dead letters with `queue drop`), or run forget again with --force',
  ].join('\n');
}

function printReport(report: ErasureReport): void {
  const lines = [
    `erased patient ${report.patientId}${report.customerId === undefined ? '' : ` (customerId ${report.customerId})`}${report.forced ? ', forced' : ''}`,
    `  records reduced to ids and stamps: ${report.records.join(', ') || 'none'}`,
    ...Object.entries(report.removed).map(([place, n]) => `  ${place}: ${n}`),
    // By label: the ERP may have named the file after the patient just erased.
    ...report.files.map(
      (file) =>
        `  inbox file removed: ${path.join(path.dirname(file), fileLabel(path.basename(file)))}`,
    ),
    ...report.backups.map((file) => `  erased in backup: ${file}`),
    '  kept: ids, versions, content hashes, ERP keys and times; the ERP keeps its own outbox copy',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `forget patient <id|customerId>`: erasure of one patient's personal data (src/housekeeping/erasure/). */
export function forgetCommand(): Command {
  const patient = commandWithConfig(
    'patient',
    "erase a patient's personal data from the database, its WAL and free pages, the inbox archive and every backup `backup` made; refused while the daemon runs or work for the patient is unresolved",
  )
    .argument(
      '<id|customerId>',
      "the patient's platform _id (a UUID) or the ERP's customerId (anything else)",
    )
    .option('--customer-id', 'the argument is the ERP customerId (optional: said when both fit)')
    .option('--id', 'the argument is the platform _id (optional: said when both fit)')
    .option(
      '--force',
      'erase even while work for the patient is unresolved (that work is given up)',
    )
    .action((value: string, options: ForgetOptions) => {
      const subject = subjectOf(value, options);
      // A copy a killed dry run left beside the database holds the patient too: removed here
      // (as every command that opens the database does), and named in the erasure's report.
      let removed: string[] = [];
      let running: DryRunCopy[] = [];
      const outcome = withStore(
        options,
        (store, config) =>
          whileNoDaemonRuns(store, FORGET_REFUSED, () => {
            removed = removeStaleDryRuns(store.path);
            running = dryRunCopies(store.path);
            return erasePatient(store, subject, {
              force: options.force === true,
              inbox: config.erp.adapter === 'file' ? config.erp.file.inbox : undefined,
            });
          }),
        'write',
        'keep',
      );
      if (outcome.outcome !== 'erased') {
        for (const copy of removed) process.stderr.write(`removed the dry-run copy ${copy}\n`);
      }
      if (outcome.outcome === 'unknown') {
        throw new CliExit(
          EXIT.failure,
          `forget: no ${named(subject)} is known to the database; nothing erased`,
        );
      }
      if (outcome.outcome === 'ambiguous') {
        throw new CliExit(
          EXIT.failure,
          `forget: ${value} is the customerId of patient ${outcome.byCustomerId} and the _id of patient ${outcome.byId}; say which with --customer-id or --id`,
        );
      }
      if (outcome.outcome === 'refused')
        throw new CliExit(EXIT.failure, refusal(named(subject), outcome.work));
      printReport(outcome.report);
      for (const copy of removed) process.stdout.write(`  dry-run copy removed: ${copy}\n`);
      for (const copy of running) {
        process.stdout.write(
          `  dry-run copy ${copy.path}: a dry run is running (process ${copy.pid}) on a copy taken before the erasure; it removes the copy when it ends\n`,
        );
      }
    });
  return new Command('forget').description('erase personal data on request').addCommand(patient);
}
