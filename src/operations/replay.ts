import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/index.js';
import type { InboxMessage } from '../erp/adapter.js';
import { messageLabel } from '../log/index.js';
import { ARCHIVE, ERROR, readContext, readInboxFile } from '../erp/inbound/index.js';
import { inboxKinds, inboxMessage, OPENTRANS_FOLDER } from '../erp/messages/index.js';
import { jobFromInbox, PUSH_BACK_KINDS, supersedingKind } from '../pushback/index.js';
import {
  deadLettersOf,
  firstMessageOf,
  jobOfMessage,
  keptMessage,
  newerJobAbout,
  newerMessageAbout,
  recordOperatorAction,
  replayedName,
  replayName,
  requestsNamed,
  transaction,
  type KeptMessage,
  type Operator,
  type Store,
} from '../store/index.js';
import { fileInboxOptions, keepMessage, mirroredOrder } from '../pushback/intake.js';

/**
 * `inbox replay`: one message the ERP sent before (an archived inbox file, or a request to
 * `POST /erp/<kind>` the database kept) queued again as a new message, named after the first
 * (jobKeys.ts, replayName) so that `trace` shows both, linked. Its job writes through the same
 * handler as the first one's, which reads before it writes (writeOnce): what the platform holds
 * already is not sent again.
 */

export interface Replayed {
  kind: string;
  /** The first message, as the database kept it. */
  first: KeptMessage;
  /** The job the first message queued, while the queue still holds it. */
  firstJobId: number | undefined;
  /** The replay's own message name and job. */
  name: string;
  jobId: number;
  entityKey: string;
}

export type ReplayOutcome =
  { ok: true; what: string; replays: Replayed[] } | { ok: false; refused: string };

/** Where a replay's message comes from: a file of the archive, or a kept request. */
type Source =
  | { from: 'file'; folder: string; file: string; path: string }
  | { from: 'request'; message: KeptMessage };

type Found = Source | { refused: string };

/** A message to replay, with the first one it repeats. */
interface Candidate {
  message: InboxMessage;
  first: KeptMessage;
}

const refused = (text: string) => ({ refused: text });

function layoutText(inbox: string): string {
  return `${path.join(inbox, ARCHIVE)}/<kind>/<YYYY-MM-DD>/`;
}

/** Refuses a file in `.error/`: the inbox never took it, so there is nothing to replay. */
function inErrorFolder(file: string, inbox: string): { refused: string } {
  return refused(
    `${file} is a file the inbox set aside as rejected (in ${path.join(inbox, ERROR)}/): it was never queued, so there is nothing to replay. Fix it as ${path.basename(file)}.error.json beside it says, then move it into ${inbox}/<kind>/ to have it read again`,
  );
}

/** An existing file, placed by where it lies in the inbox. */
function placeFile(file: string, inbox: string): Found {
  const real = realpathSync(file);
  const root = existsSync(inbox) ? realpathSync(inbox) : path.resolve(inbox);
  const parts = path.relative(root, real).split(path.sep);
  if (parts[0] === ERROR) return inErrorFolder(file, inbox);
  const [top, folder, , name] = parts;
  if (top !== ARCHIVE || parts.length !== 4 || folder === undefined || name === undefined) {
    return refused(
      `${file} is not in the inbox archive (${layoutText(inbox)}): only a message the inbox read and archived can be replayed. A new message goes into ${inbox}/<kind>/`,
    );
  }
  if (!statSync(real).isFile()) return refused(`${file} is not a file`);
  return { from: 'file', folder, file: name, path: real };
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name));
  } catch {
    // A folder that is not there holds no archived file to replay.
    return [];
  }
}

/** The archived files named `name`, in any kind and day folder. */
function archivedNamed(inbox: string, name: string): string[] {
  return subfolders(path.join(inbox, ARCHIVE))
    .flatMap(subfolders)
    .map((day) => path.join(day, name))
    .filter((file) => existsSync(file));
}

/** A name no archived file carries: a rejected file's, or an ERP request's key. */
function notArchived(store: Store, inbox: string, name: string): Found {
  const rejected = subfolders(path.join(inbox, ERROR))
    .map((folder) => path.join(folder, name))
    .find((file) => existsSync(file));
  if (rejected !== undefined) return inErrorFolder(rejected, inbox);
  const requests = requestsNamed(store, name);
  const [request, ...others] = requests;
  if (request !== undefined && others.length === 0) return { from: 'request', message: request };
  if (request !== undefined) {
    const kinds = requests.map((r) => r.kind).join(', ');
    return refused(`several requests of the ERP carry the key ${name} (${kinds}): none replayed`);
  }
  return refused(
    `no archived inbox file and no ERP request is named "${name}": give a file of ${layoutText(inbox)} (its path or its name) or the Idempotency-Key of a POST /erp/<kind> request (\`homecare-sync trace <key>\` finds both)`,
  );
}

/** What `given` names: a path to a file, a file name in the archive, or a request's key. */
function locate(store: Store, inbox: string, given: string, cwd: string): Found {
  const asPath = path.resolve(cwd, given);
  if (existsSync(asPath)) return placeFile(asPath, inbox);
  if (given.includes('/') && requestsNamed(store, given).length === 0) {
    return refused(`no file ${asPath}`);
  }
  const archived = archivedNamed(inbox, given);
  const [only, ...more] = archived;
  if (only === undefined) return notArchived(store, inbox, given);
  if (more.length > 0) {
    return refused(
      `several archived files are named ${given}; give the path of the one to replay:\n  ${archived.join('\n  ')}`,
    );
  }
  return placeFile(only, inbox);
}

/** The file's messages as the inbox reads them now, each with the message first kept of it. */
async function fileCandidates(
  store: Store,
  config: Config,
  source: Extract<Source, { from: 'file' }>,
): Promise<Candidate[] | { refused: string }> {
  const kinds = inboxKinds(PUSH_BACK_KINDS);
  if (source.folder !== OPENTRANS_FOLDER && kinds.find(source.folder) === undefined) {
    return refused(`${source.path} is not in the archive folder of an inbox kind`);
  }
  const context = readContext(fileInboxOptions(config), {
    kinds,
    openTransOrder: mirroredOrder(store),
  });
  const read = await readInboxFile(context, source.folder, source.file, source.path);
  if (!read.ok) {
    const problems = read.problems.map((p) => `\n  ${p.path}: ${p.message}`).join('');
    return refused(`${source.path} no longer passes the inbox's checks: ${read.reason}${problems}`);
  }
  const candidates: Candidate[] = [];
  for (const message of read.messages) {
    const { kind, name, sha256 } = message;
    const first = firstMessageOf(store, { kind, source: 'file', name, sha256 });
    if (first === undefined) {
      return refused(
        `the database holds no message read from ${source.path} (was it replaced, or restored from a backup older than the file?); to send it anyway, copy it into ${path.join(config.erp.file.inbox, source.folder)}/ as a new file`,
      );
    }
    candidates.push({ message, first });
  }
  return candidates.length > 0
    ? candidates
    : refused(`${source.path} holds no message the inbox would take`);
}

function requestCandidate(store: Store, message: KeptMessage): Candidate[] | { refused: string } {
  const said = original(store, message);
  if (said.body === '') {
    return refused(
      `the ${message.kind} request ${message.name} is no longer kept whole (retention.inboxMessages days after it was handled, or erased by \`forget\`): the ERP must send it again`,
    );
  }
  const kind = inboxKinds(PUSH_BACK_KINDS).find(message.kind);
  if (kind === undefined) return refused(`${message.kind} is no inbox kind`);
  const body = JSON.parse(said.body) as Record<string, unknown>;
  const source = message.source === 'file' ? 'file' : 'http';
  const replayed = inboxMessage(kind, source, message.name, body, said.stamp);
  return [{ message: replayed, first: message }];
}

/** The message a kept one stands for: itself, or the first of its content it repeats. */
const original = (store: Store, message: KeptMessage): KeptMessage =>
  (message.repeatOf === undefined ? undefined : keptMessage(store, message.repeatOf)) ?? message;

/** Why the first message's job, or a newer message, stands in the replay's way; undefined: none. */
function hindrance(store: Store, candidate: Candidate, entityKey: string): string | undefined {
  const { first } = candidate;
  if (first.state === 'rejected') {
    return `${first.kind} ${first.name} was refused when it came (${first.error ?? 'rejected'}): nothing to replay`;
  }
  const said = original(store, first);
  const job = jobOfMessage(store, said);
  const about = job === undefined ? '' : `job ${job.id} (${job.kind} ${job.entityKey})`;
  if (job !== undefined && (job.state === 'pending' || job.state === 'running')) {
    return `${about} from ${said.name} is still ${job.state}: it runs on its own; nothing to replay`;
  }
  if (
    job?.state === 'dead' &&
    deadLettersOf(store, job.id).some((l) => l.resolvedAt === undefined)
  ) {
    return `${about} from ${said.name} is a dead letter: \`homecare-sync queue retry ${job.id}\` sends it again (\`queue show ${job.id}\` says why it failed)`;
  }
  const { key } = candidate.message;
  const newer = newerMessageAbout(store, first.kind, key, said.id, candidate.message.sha256);
  if (newer !== undefined) {
    return `overtaken: a newer ${first.kind} message about ${key}, ${newer.name} (received ${newer.receivedAt}), came after ${first.name}; replaying the older one would take the platform back to what it said`;
  }
  if (!supersedingKind(first.kind)) return undefined;
  const queued = newerJobAbout(store, first.kind, entityKey, said.receivedAt, said);
  if (queued === undefined) return undefined;
  return `overtaken: a newer ${first.kind} message about ${entityKey} came after ${first.name} (job ${queued}): replaying the older one would overwrite it on the platform with outdated data`;
}

/** Queues each candidate as a new message, all or none, each audited as the operator's. */
function queueReplays(
  store: Store,
  candidates: readonly Candidate[],
  operator: Operator,
): Replayed[] | { refused: string } {
  return transaction(store, () => {
    const at = store.clock.now().toISOString();
    const planned = candidates.map((candidate) => {
      const base = replayedName(candidate.first.name) ?? candidate.first.name;
      const message = { ...candidate.message, name: replayName(base, at) };
      return { candidate, message, entityKey: jobFromInbox(message, store).entityKey };
    });
    for (const { candidate, entityKey } of planned) {
      const why = hindrance(store, candidate, entityKey);
      if (why !== undefined) return refused(why);
    }
    return planned.map(({ candidate, message, entityKey }) => {
      const kept = keepMessage(store, message, undefined, true);
      if (kept.outcome !== 'accepted') throw new Error(`replay ${message.name} was kept before`);
      const { first } = candidate;
      const firstJobId = jobOfMessage(store, original(store, first))?.id;
      const from = first.source === 'file' ? 'file' : 'request';
      // Kept for good, beyond forget's reach: an ERP file (maybe named after the patient) by label.
      const name = first.source === 'file' ? messageLabel(first.name) : first.name;
      const firstJob = firstJobId === undefined ? '' : ` as job ${firstJobId}`;
      recordOperatorAction(
        store,
        {
          action: 'replay',
          subject: `job:${kept.jobId}`,
          detail: `${first.kind} ${from} ${name}, first received ${first.receivedAt}${firstJob}`,
        },
        operator,
      );
      return {
        kind: first.kind,
        first,
        firstJobId,
        name: message.name,
        jobId: kept.jobId,
        entityKey,
      };
    });
  });
}

/**
 * Replays the archived inbox file or kept ERP request `given` names (a path, an archived file's
 * name, or a request's Idempotency-Key): each of its messages queued again as a new message.
 * Refused, saying why and what to do instead: a name nothing carries, a file outside the
 * archive or in `.error/`, a message whose first job is still queued or dead, an older message
 * a newer one of a superseding kind replaced.
 */
export async function replayInboxMessage(
  store: Store,
  config: Config,
  given: string,
  where: { cwd: string; operator: Operator },
): Promise<ReplayOutcome> {
  const inbox = path.resolve(where.cwd, config.erp.file.inbox);
  const source = locate(store, inbox, given, where.cwd);
  if ('refused' in source) return { ok: false, ...source };
  const candidates =
    source.from === 'file'
      ? await fileCandidates(store, config, source)
      : requestCandidate(store, source.message);
  if ('refused' in candidates) return { ok: false, ...candidates };
  const replays = queueReplays(store, candidates, where.operator);
  if ('refused' in replays) return { ok: false, ...replays };
  const what = source.from === 'file' ? source.path : `request ${source.message.name}`;
  return { ok: true, what, replays };
}
