/**
 * The idempotency keys of the queue's jobs that other rooms look up by (`trace`): spelled here
 * once, beside the table, for the code that makes the jobs and the code that finds them.
 */

/** A record version's hand-over to the ERP (queue/deliveryJob.ts). */
export const handOverKey = (resource: string, id: string, version: string): string =>
  `${resource}:${id}:${version}`;

/** What an operator's redelivery adds to a hand-over's key, before its own mark. */
export const AGAIN = ':again:';

/** An archival event's hand-over: the version's key with a mark of its own. */
export const archivalKey = (versionKey: string): string => `${versionKey}:archived`;

/** The ERP message a push-back job came from, as inbox_messages keeps it. */
export interface InboxMessageKey {
  kind: string;
  source: string;
  name: string;
  sha256: string;
}

/** A push-back job's key: the same message (file or request, same content) queues once. */
export const inboxJobKey = (message: InboxMessageKey): string =>
  `inbox:${message.kind}:${message.source}:${message.name}:${message.sha256}`;

/** The message an inbox job's key names; undefined for a key of another job. */
export function inboxMessageOfKey(key: string | undefined): InboxMessageKey | undefined {
  const parts = key?.split(':') ?? [];
  if (parts[0] !== 'inbox' || parts.length < 5) return undefined;
  const [, kind = '', source = ''] = parts;
  // A name may hold ':' itself; the hash never does.
  return { kind, source, name: parts.slice(3, -1).join(':'), sha256: parts.at(-1) ?? '' };
}

/**
 * What an operator's replay of an ERP message (`inbox replay`) adds to the message's name, before
 * its own mark (the time): the replay is a new message, linked to the first by that name.
 */
export const REPLAY = ':replay:';

/** The name of a replay of the message named `name`, made at `at`. */
export const replayName = (name: string, at: string): string => `${name}${REPLAY}${at}`;

/** The start of every replay job's key of `message` (inboxJobKey of a replayName). */
export const replayJobKeyStart = (message: Omit<InboxMessageKey, 'sha256'>): string =>
  `inbox:${message.kind}:${message.source}:${message.name}${REPLAY}`;

/** The name of the message a replay's name repeats; undefined for a message that is no replay. */
export function replayedName(name: string): string | undefined {
  const at = name.lastIndexOf(REPLAY);
  return at < 0 ? undefined : name.slice(0, at);
}

/** Whether a job's key is that of a replayed ERP message's job (its write may be made already). */
export function isReplayJobKey(key: string | undefined): boolean {
  const message = inboxMessageOfKey(key);
  return message !== undefined && replayedName(message.name) !== undefined;
}
