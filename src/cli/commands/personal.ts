import type { Command } from 'commander';
import { maskPersonal, messageLabel, type PersonalValues } from '../../log/index.js';
import {
  currentOperator,
  inboxJobKey,
  inboxMessageOfKey,
  personalValuesOf,
  recordOperatorAction,
  subjectOfJob,
  type StoredJob,
  type Store,
} from '../../store/index.js';

/**
 * What the commands that print platform or ERP text share about personal values: masked by
 * default with the one masking (maskPersonal), shown with `--show-personal`, and every look
 * kept as the operator action `showPersonal` (who, from which host, when, what was looked at).
 */

/** `--show-personal`, worded alike on every command that has it. */
export function withShowPersonal(command: Command, what: string): Command {
  return command.option(
    '--show-personal',
    `show ${what} as stored instead of masked; recorded as an operator action (who, when, from which host)`,
  );
}

export const personalOf = (options: { showPersonal?: boolean }): PersonalValues =>
  options.showPersonal === true ? 'shown' : 'masked';

/** Keeps the look at `subject`'s personal values, in the caller's transaction. */
export function recordLook(store: Store, subject: string, detail: string): void {
  recordOperatorAction(store, { action: 'showPersonal', subject, detail }, currentOperator());
}

/** A job's idempotency key with the ERP file its message came from named by its label. */
export function labelledJobKey(key: string | undefined): string | undefined {
  const message = inboxMessageOfKey(key);
  return message === undefined
    ? key
    : inboxJobKey({ ...message, name: messageLabel(message.name) });
}

/**
 * A job (or what a command shows of one) masked: its payload's personal fields, its texts by
 * the personal values of its payload, its record and the record's patient (personalValuesOf),
 * the other side's answers by their structure, its message's file by its label.
 */
export function maskedJob<T extends StoredJob>(store: Store, job: T): T {
  const known = personalValuesOf(store, subjectOfJob(store, job.id), [JSON.stringify(job.payload)]);
  const masked = maskPersonal(job, known);
  const key = labelledJobKey(masked.idempotencyKey);
  return key === undefined ? masked : { ...masked, idempotencyKey: key };
}
