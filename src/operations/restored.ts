import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/index.js';
import { triedWriteOf, type Contract, type ResourceName } from '../contract/index.js';
import type { InboxMessage } from '../erp/adapter.js';
import { ARCHIVE, readContext, readInboxFile } from '../erp/inbound/index.js';
import { inboxKinds } from '../erp/messages/index.js';
import {
  freshJob,
  jobFromInbox,
  mirrorCore,
  previewOfJob,
  PUSH_BACK_KINDS,
  recordTriedChange,
  type NotedWrite,
} from '../pushback/index.js';
import type { Clock } from '../shared/clock.js';
import { dayIn } from '../shared/timeZone.js';
import { clearRestorePoint, restorePointOf } from '../housekeeping/index.js';
import {
  firstMessageOf,
  insertInboxMessage,
  recordTriedCreate,
  settleInboxMessage,
  transaction,
  type Store,
} from '../store/index.js';
import type { Logger } from '../log/index.js';
import { fileInboxOptions, mirroredOrder, mirroredOrdersBySalesId } from '../pushback/intake.js';

/**
 * A database restored from a backup taken at T knows nothing of the platform writes made after
 * T: their fingerprints (own_writes) went with the newer database, so the pull would take our
 * own changes coming back for a platform user's and hand them to the ERP (ping-pong). What the
 * ERP sent after T survives outside the database, in the inbox archive. Its messages the backup
 * does not know are read with the inbox's own reader, run by their handlers against the noting
 * core as `inbox check` runs them, and the writes they caused are kept as tried writes: measured against the record
 * as the backup holds it, so a version with a platform user's change besides ours still reaches
 * the ERP. Nothing is sent. Each message is kept as handled: the same file dropped again is a
 * repeat, and `inbox replay` sends what the platform may lack.
 */

interface ArchivedFile {
  folder: string;
  name: string;
  path: string;
  /** When the inbox archived it: the move and the mode it set change the inode's ctime. */
  archivedMs: number;
}

/** The names in `dir`; none when it is not there (no file was archived on that path). */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return [];
    throw error;
  }
}

/** The files of `<archive>/<folder>/<day>/` from `fromDay` on, in the order they were archived. */
async function archivedSince(archive: string, fromDay: string): Promise<ArchivedFile[]> {
  const files: ArchivedFile[] = [];
  for (const folder of await namesIn(archive)) {
    const days = (await namesIn(join(archive, folder))).filter((day) => day >= fromDay);
    for (const day of days) {
      for (const name of await namesIn(join(archive, folder, day))) {
        const path = join(archive, folder, day, name);
        // Gone since the folder was listed (pruned meanwhile): nothing to re-derive from it.
        const info = await stat(path).catch(() => undefined);
        if (name.startsWith('.') || info?.isFile() !== true) continue;
        files.push({ folder, name, path, archivedMs: info.ctimeMs });
      }
    }
  }
  return files.sort((a, b) => a.archivedMs - b.archivedMs || (a.name < b.name ? -1 : 1));
}

/** The messages of `files` the database does not know: handled after the backup was taken. */
async function messagesAfter(store: Store, config: Config, files: readonly ArchivedFile[]) {
  const context = readContext(fileInboxOptions(config), {
    kinds: inboxKinds(PUSH_BACK_KINDS),
    openTransOrder: mirroredOrder(store),
    ordersBySalesId: mirroredOrdersBySalesId(store),
  });
  const messages: InboxMessage[] = [];
  let unread = 0;
  for (const file of files) {
    const read = await readInboxFile(context, file.folder, file.name, file.path);
    if (!read.ok) {
      // Taken when it came, refused now: the inbox's settings changed since.
      unread += 1;
      continue;
    }
    for (const message of read.messages) {
      const { kind, name, sha256 } = message;
      if (firstMessageOf(store, { kind, source: 'file', name, sha256 }) === undefined) {
        messages.push(message);
      }
    }
  }
  return { messages, unread };
}

/** What the writes after the backup did, per record: one change, later fields over earlier. */
interface Derived {
  changes: Map<string, { resource: ResourceName; id: string; body: NotedWrite['body'] }>;
  creates: { message: InboxMessage; write: NotedWrite }[];
}

/** The writes each message's handler makes against the noting core, reading the mirror. */
async function derive(
  store: Store,
  view: { contract: Contract; clock: Clock },
  messages: readonly InboxMessage[],
): Promise<Derived> {
  const { contract, clock } = view;
  const reads = mirrorCore(store, contract, clock);
  const derived: Derived = { changes: new Map(), creates: [] };
  for (const message of messages) {
    const { entityKey } = jobFromInbox(message, store);
    const job = freshJob(message.kind, entityKey, message.body, clock.now());
    const { requests } = await previewOfJob(job, { store, contract, clock, reads });
    for (const write of requests) {
      // The contract refuses it: the handler never sent it either.
      if ('refused' in write) continue;
      const { resource, id, body } = write;
      if (id === undefined) {
        derived.creates.push({ message, write });
        continue;
      }
      const key = `${resource}:${id}`;
      const before = derived.changes.get(key)?.body ?? {};
      derived.changes.set(key, { resource, id, body: { ...before, ...body } });
    }
  }
  return derived;
}

/** Keeps the messages as handled and the writes' fingerprints; returns how many were kept. */
function keep(store: Store, messages: readonly InboxMessage[], derived: Derived): number {
  const ids = new Map<InboxMessage, number>();
  for (const message of messages) {
    const { kind, source, name, sha256, key, stamp } = message;
    const body = JSON.stringify(message.body);
    const row = { kind, source, name, sha256, body, entity: key };
    const kept = insertInboxMessage(store, stamp === undefined ? row : { ...row, stamp });
    if (kept.outcome === 'new') settleInboxMessage(store, kept.id, 'done');
    ids.set(message, kept.id);
  }
  let kept = 0;
  for (const change of derived.changes.values()) if (recordTriedChange(store, change)) kept += 1;
  for (const [index, { message, write }] of derived.creates.entries()) {
    const key = `restored-${ids.get(message) ?? 0}.${index}` as const;
    recordTriedCreate(store, write.resource, key, triedWriteOf(write.body));
    kept += 1;
  }
  return kept;
}

/**
 * On a database restored from a backup (housekeeping/backup/restorePoint.ts), before the first pull and
 * holding the writer lock: keeps as our own the platform writes the ERP's messages caused after
 * the backup was taken, as far as the inbox archive tells them, and clears the restore point.
 */
export async function rederiveAfterRestore(app: {
  store: Store;
  config: Config;
  contract: Contract;
  clock: Clock;
  logger: Logger;
}): Promise<void> {
  const { store, config, logger } = app;
  const takenAt = restorePointOf(store);
  if (takenAt === undefined) return;
  if (config.erp.adapter !== 'file') {
    transaction(store, () => clearRestorePoint(store));
    logger.info(
      { takenAt },
      `database restored from a backup taken at ${takenAt}: the ERP's requests since then were kept in the database only, so the platform writes they caused are not known as ours; their versions reach the ERP once as platform changes`,
    );
    return;
  }
  const fromDay = dayIn(new Date(takenAt), config.timezone);
  const files = await archivedSince(join(config.erp.file.inbox, ARCHIVE), fromDay);
  const { messages, unread } = await messagesAfter(store, config, files);
  const derived = await derive(store, app, messages);
  const kept = transaction(store, () => {
    const count = keep(store, messages, derived);
    clearRestorePoint(store);
    return count;
  });
  logger.info(
    {
      takenAt,
      files: files.length,
      unreadFiles: unread,
      messages: messages.length,
      ownWrites: kept,
    },
    `database restored from a backup taken at ${takenAt}: ${kept} platform write(s) of ${messages.length} ERP message(s) the inbox archived since then re-derived and kept as our own (nothing sent), so the pull does not hand them back to the ERP`,
  );
}
