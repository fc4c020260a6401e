import { statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Config } from '../config/index.js';
import { contractFor } from '../contract/index.js';
import { errorReportText, readContext, readInboxFile } from '../erp/inbound/index.js';
import { inboxKinds, OPENTRANS_FOLDER, type DroppedFields } from '../erp/messages/index.js';
import { nearestField } from '../shared/nearest.js';
import {
  freshJob,
  jobFromInbox,
  mirrorCore,
  previewOfJob,
  PUSH_BACK_KINDS,
  type NotedRequest,
} from '../pushback/index.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import { fileInboxOptions, mirroredOrder, mirroredOrdersBySalesId } from '../pushback/intake.js';

/** One message the inbox would queue, and the writes its job would make on the platform. */
export interface CheckedMessage {
  kind: string;
  /** As the inbox names it: the file, or `<file>#<row, record or ORDER_ID>`. */
  name: string;
  /** The queue key its job would run under, in order with the other jobs of that entity. */
  entityKey: string;
  requests: NotedRequest[];
  /** What only the run decides, or what stops the write. */
  notes: string[];
}

export interface InboxCheck {
  folder: string;
  path: string;
  /** The messages the inbox would queue (none when it rejects the file). */
  messages: CheckedMessage[];
  /** What the file says that is not written (openTRANS line changes), fields left out. */
  notes: string[];
  /**
   * The `<file>.error.json` the inbox would write: `rejected`, the file would go to `.error/`;
   * else only its bad rows would, the good ones going through.
   */
  report?: { text: string; rejected: boolean };
}

/** The inbox folder a file is read as: `--kind`, else the folder it lies in. */
function folderOf(path: string, given: string | undefined): string | { refused: string } {
  const folders = [...inboxKinds(PUSH_BACK_KINDS).names, OPENTRANS_FOLDER];
  const folder = given ?? basename(dirname(path));
  if (folders.includes(folder)) return folder;
  const said =
    given === undefined ? `${path} lies in a folder named "${folder}", which` : `--kind ${given}`;
  const nearest = nearestField(folder, folders);
  const guess = nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
  return {
    refused: `${said} is not an inbox kind${guess}; put the file in <inbox>/<kind>/ or give --kind, one of ${folders.join(', ')}`,
  };
}

/**
 * Reads the file at `given` as the inbox would read it from its folder (the same
 * `readInboxFile`, with the daemon's options, mappings and mirror look-ups) and runs each
 * message's handler against the noting core, reading the mirror (previewOfJob). Moves, stores, queues and sends nothing.
 */
export async function checkInboxFile(
  store: Store,
  config: Config,
  clock: Clock,
  given: { path: string; kind?: string },
): Promise<InboxCheck | { refused: string }> {
  const path = resolve(given.path);
  if (!statSync(path, { throwIfNoEntry: false })?.isFile()) return { refused: `no file ${path}` };
  const folder = folderOf(path, given.kind);
  if (typeof folder !== 'string') return folder;
  const dropped: string[] = [];
  const noteDropped: DroppedFields = (kind, fields) => {
    dropped.push(`${kind}: left out (inbound.unknownFields is drop): ${fields.join(', ')}`);
  };
  const context = readContext(fileInboxOptions(config), {
    kinds: inboxKinds(PUSH_BACK_KINDS),
    dropped: noteDropped,
    openTransOrder: mirroredOrder(store),
    ordersBySalesId: mirroredOrdersBySalesId(store),
  });
  const file = basename(path);
  const read = await readInboxFile(context, folder, file, path);
  if (!read.ok) {
    const text = errorReportText(folder, file, read.reason, read.problems, clock.now());
    return { folder, path, messages: [], notes: dropped, report: { text, rejected: true } };
  }
  const contract = contractFor(config.platform.variant, config.platform.paths);
  const reads = mirrorCore(store, contract, clock);
  const messages: CheckedMessage[] = [];
  for (const message of read.messages) {
    const { entityKey } = jobFromInbox(message, store);
    const job = freshJob(message.kind, entityKey, message.body, clock.now());
    const preview = await previewOfJob(job, { store, contract, clock, reads });
    messages.push({ kind: message.kind, name: message.name, entityKey, ...preview });
  }
  const notes = [...(read.notes ?? []), ...dropped];
  if (read.badRows.length === 0) return { folder, path, messages, notes };
  const reason = `${read.badRows.length} problem(s) in rows; the other rows would be accepted and the file archived`;
  const text = errorReportText(folder, file, reason, read.badRows, clock.now());
  return { folder, path, messages, notes, report: { text, rejected: false } };
}
