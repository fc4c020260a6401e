import os from 'node:os';
import { query, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

/** Who did it: the operating-system user and the machine a command ran on. */
export interface Operator {
  osUser: string;
  host: string;
}

/**
 * The operator running this process. A container may run under a user id the system has no
 * name for (os.userInfo throws then): the id stands for it.
 */
export function currentOperator(): Operator {
  let osUser: string;
  try {
    osUser = os.userInfo().username;
  } catch {
    // A user id without a name (see above): expected in containers, so no log line.
    osUser = `uid ${process.getuid?.() ?? 'unknown'}`;
  }
  return { osUser, host: os.hostname() };
}

/** `showPersonal`: a trace printed with the personal values it masks by default. */
export type OperatorActionName =
  | 'retry'
  | 'drop'
  | 'redeliver'
  | 'checkpointReset'
  | 'pause'
  | 'resume'
  | 'replay'
  | 'showPersonal';

export interface OperatorAction {
  action: OperatorActionName;
  /**
   * What it was done to: `job:<id>`, `<resource>:<_id>`, `checkpoint:<resource>`, a pause's
   * `pull:<resource>` or `push:<kind>` (`*` for the whole direction).
   */
  subject: string;
  detail?: string;
}

export interface RecordedAction extends OperatorAction, Operator {
  at: string;
}

/** Keeps an operator's action, in the caller's transaction: with the action or not at all. */
export function recordOperatorAction(store: Store, action: OperatorAction, by: Operator): void {
  statement<Record<string, string | null>>(
    store.db,
    `INSERT INTO operator_actions (action, subject, detail, os_user, host, at)
     VALUES (@action, @subject, @detail, @osUser, @host, @at)`,
  ).run({
    action: action.action,
    subject: action.subject,
    detail: action.detail ?? null,
    osUser: by.osUser,
    host: by.host,
    at: storedNow(store),
  });
}

/**
 * Keeps a look at personal values (`--show-personal`, the console's operator role), in the
 * caller's transaction with the reading: on `subject` (`job:<id>`, `<resource>:<_id>`,
 * `file:<kind>/<label>`), `detail` saying what showed them. Every look, every time.
 */
export function recordShowPersonal(
  store: Store,
  look: { subject: string; detail: string },
  by: Operator = currentOperator(),
): void {
  recordOperatorAction(store, { action: 'showPersonal', ...look }, by);
}

/** The actions done to `subjects`, oldest first. */
export function operatorActionsOn(store: Store, subjects: readonly string[]): RecordedAction[] {
  const select = query<
    { subject: string },
    {
      action: string;
      subject: string;
      detail: string | null;
      os_user: string;
      host: string;
      at: string;
    }
  >(
    store.db,
    `SELECT action, subject, detail, os_user, host, at FROM operator_actions
     WHERE subject = @subject ORDER BY id`,
    { action: 'text', subject: 'text', detail: 'text?', os_user: 'text', host: 'text', at: 'text' },
  );
  return subjects
    .flatMap((subject) => select.all({ subject }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
    .map((row) => ({
      action: row.action as OperatorActionName,
      subject: row.subject,
      ...(row.detail === null ? {} : { detail: row.detail }),
      osUser: row.os_user,
      host: row.host,
      at: row.at,
    }));
}
