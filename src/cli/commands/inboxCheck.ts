import type { Command } from 'commander';
import { checkInboxFile, type CheckedMessage, type InboxCheck } from '../../app/inboxCheck.js';
import { systemClock } from '../../shared/clock.js';
import { openStore } from '../../store/index.js';
import { withStoreIfThere } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

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

async function checkAction(file: string, options: ConfigOption & { kind?: string }) {
  const check = await withStoreIfThere(options, async (store, config) => {
    // Without a database yet, the daemon's first scan would find an empty mirror: so does this.
    const mirror = store ?? openStore({ path: ':memory:', clock: systemClock });
    try {
      return await checkInboxFile(mirror, config, systemClock, {
        path: file,
        ...(options.kind === undefined ? {} : { kind: options.kind }),
      });
    } finally {
      if (store === undefined) mirror.close();
    }
  });
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
  return commandWithConfig(
    'check',
    'read an ERP file as the inbox would and print the platform writes it would cause (or the report of a bad file); sends, moves and stores nothing',
  )
    .argument('<file>', 'the file, in <inbox>/<kind>/ (or anywhere, with --kind)')
    .option(
      '--kind <kind>',
      'read it as this inbox kind (or opentrans) instead of the folder it lies in',
    )
    .addHelpText(
      'after',
      '\nExit code 0 when the inbox would take the whole file; 1 when it would reject it or some of its rows.',
    )
    .action(checkAction);
}
