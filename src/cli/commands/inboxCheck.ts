import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import {
  checkInboxFile,
  type CheckedMessage,
  type InboxCheck,
} from '../../operations/inboxCheck.js';
import type { Config } from '../../config/index.js';
import {
  fileLabel,
  maskPersonal,
  messageLabel,
  personalValues,
  type PersonalValues,
} from '../../log/index.js';
import { systemClock } from '../../shared/clock.js';
import { openStore, recordShowPersonal, transaction, type Store } from '../../store/index.js';
import { withStoreAsync, withStoreIfThere } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';
import { personalOf, withShowPersonal } from './personal.js';

/** Longer texts (an attachment's base64) are cut in the listing: the fields matter, not the bytes. */
const SHOWN_TEXT = 200;

function shownBody(body: Record<string, unknown>): string {
  const text = JSON.stringify(
    body,
    (_key, value: unknown) =>
      typeof value === 'string' && value.length > SHOWN_TEXT
        ? `${value.slice(0, 40)}… (${value.length} characters)`
        : value,
    2,
  );
  return text.replaceAll('\n', '\n    ');
}

function messageText(message: CheckedMessage): string {
  const lines = [`${message.kind} ${message.name} (queue key ${message.entityKey})`];
  for (const request of message.requests) {
    lines.push(
      'refused' in request
        ? `  not sent: ${request.refused}`
        : `  ${request.method} ${request.path}`,
    );
    lines.push(`    ${shownBody(request.body)}`);
  }
  if (message.requests.length === 0) lines.push('  no write');
  for (const note of message.notes) lines.push(`  note: ${note}`);
  return lines.join('\n');
}

function checkText(check: InboxCheck): string {
  const count = `${check.messages.length} message(s)`;
  const head = `${check.path} read as ${check.folder}: ${count}; nothing was sent, moved, queued or stored`;
  const notes = check.notes.map((note) => `note: ${note}`);
  return [head, '', ...check.messages.map(messageText), ...notes, ''].join('\n');
}

/** The report the inbox would write beside a bad file (JSON), masked as the rest. */
function maskedReport(text: string, known: readonly string[]): string {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return maskPersonal(text, known);
  }
  const masked = maskPersonal(report, known) as Record<string, unknown>;
  const file = typeof masked['file'] === 'string' ? { file: fileLabel(masked['file']) } : {};
  return `${JSON.stringify({ ...masked, ...file }, null, 2)}\n`;
}

/**
 * What the check found, masked: the bodies' personal fields, the file's values wherever the
 * notes and report quote them, the file's name (an ERP may name it after the patient) by its
 * label, as logs show it.
 */
function maskedCheck(check: InboxCheck): InboxCheck {
  const known = personalValues(
    check.messages.flatMap((message) => message.requests.map((request) => request.body)),
  );
  const messages = check.messages.map((message) => ({
    ...maskPersonal(message, known),
    name: messageLabel(message.name),
  }));
  return {
    ...check,
    path: join(dirname(check.path), fileLabel(basename(check.path))),
    messages,
    notes: maskPersonal(check.notes, known),
    ...(check.report === undefined
      ? {}
      : { report: { ...check.report, text: maskedReport(check.report.text, known) } }),
  };
}

type Checked = InboxCheck | { refused: string };

async function check(
  store: Store | undefined,
  config: Config,
  file: string,
  kind: string | undefined,
): Promise<Checked> {
  // Without a database yet, the daemon's first scan would find an empty mirror: so does this.
  const mirror = store ?? openStore({ path: ':memory:', clock: systemClock });
  try {
    return await checkInboxFile(mirror, config, systemClock, {
      path: file,
      ...(kind === undefined ? {} : { kind }),
    });
  } finally {
    if (store === undefined) mirror.close();
  }
}

/**
 * The check masked (the database read only), or as read with the look recorded: by the file's
 * label, since the audit is kept for good and the name may be the patient's.
 */
async function checked(
  options: ConfigOption & { kind?: string },
  file: string,
  personal: PersonalValues,
): Promise<Checked> {
  if (personal === 'masked') {
    const found = await withStoreIfThere(options, (store, config) =>
      check(store, config, file, options.kind),
    );
    return 'refused' in found ? found : maskedCheck(found);
  }
  return withStoreAsync(options, async (store, config) => {
    const found = await check(store, config, file, options.kind);
    if ('refused' in found) return found;
    const subject = `file:${found.folder}/${fileLabel(basename(found.path))}`;
    transaction(store, () => recordShowPersonal(store, { subject, detail: 'inbox check' }));
    return found;
  });
}

async function checkAction(
  file: string,
  options: ConfigOption & { kind?: string; showPersonal?: boolean },
) {
  const check = await checked(options, file, personalOf(options));
  if ('refused' in check) throw new CliExit(EXIT.failure, `inbox check: ${check.refused}`);
  if (check.report?.rejected !== true) process.stdout.write(checkText(check));
  if (check.report === undefined) return;
  process.stdout.write(check.report.text);
  throw new CliExit(
    EXIT.failure,
    check.report.rejected
      ? `inbox check: the inbox would set ${check.path} aside in .error/${check.folder}/ with the report above`
      : `inbox check: the inbox would take the good rows of ${check.path} and copy it to .error/${check.folder}/ with the report above`,
  );
}

/** `inbox check <file> [--kind <kind>]`: what an ERP file would write, sending nothing. */
export function inboxCheckCommand(): Command {
  const command = commandWithConfig(
    'check',
    'read an ERP file as the inbox would and print the platform writes it would cause (or the report of a bad file), personal values and the file name masked; sends, moves and stores nothing',
  )
    .argument('<file>', 'the file, in <inbox>/<kind>/ (or anywhere, with --kind)')
    .option(
      '--kind <kind>',
      'read it as this inbox kind (or opentrans) instead of the folder it lies in',
    )
    .addHelpText(
      'after',
      '\nExit code 0 when the inbox would take the whole file; 1 when it would reject it or some of its rows.',
    );
  return withShowPersonal(command, 'the personal values and the file name').action(checkAction);
}
