/**
 * What becomes of a claimed file (in `.processing/<kind>/`): its messages handed over to the
 * store, then the file archived; or set aside in `.error/` with a report.
 */
import { join } from 'node:path';
import { TransientError, errorCode, errorMessage } from '../../shared/errors.js';
import { dayIn } from '../../shared/timeZone.js';
import type { InboxMessage } from '../adapter.js';
import type { ReadContext } from '../formats/format.js';
import type { InboxFolder } from '../messages/kinds.js';
import { freeName, moveInto } from './folders.js';
import type { InboxOptions } from './options.js';
import { readInboxFile } from './read.js';
import type { FileResult } from './scanReport.js';
import { copyAside, refuseLinked, reject, type AsideContext } from './setAside.js';

/**
 * What the store made of a message: `conflict`, it holds another message under this name and
 * refuses this one; `overtaken`, an older message than the last one handled for its entity,
 * not queued.
 */
export type Taken = 'accepted' | 'repeat' | 'overtaken' | 'conflict';

/** Keeps messages of one file durably, all or none (one transaction); what became of each. */
export type Accept = (messages: readonly InboxMessage[]) => Promise<Taken[]>;

/**
 * Messages handed over in one transaction: not one by one (a commit costs more than a message),
 * and not all 10,000 rows of a large file while it holds the database.
 */
const HAND_OFF_BATCH = 500;

/** What handling a claimed file takes beyond reading it: its folders, the clock, the hand-off. */
export interface HandleContext extends ReadContext, AsideContext {
  options: InboxOptions;
  accept: Accept;
}

/** SQLite busy, locked, full or briefly unwritable: the same hand-off may pass next scan. */
const PASSING_STORE_CODE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|PERM|NOMEM)/;

const handOffMayPass = (error: unknown): boolean =>
  error instanceof TransientError || PASSING_STORE_CODE.test(errorCode(error) ?? '');

/**
 * Hands a claimed file's messages to `accept`, then moves it to the archive (a crash in between
 * only means it is read again and `accept` answers `repeat`); or to `.error` with a report,
 * also when it cannot be read or archived, so that no file is read over and over.
 */
export async function handleClaimed(
  ctx: HandleContext,
  kind: InboxFolder,
  file: string,
): Promise<FileResult> {
  // Before anything reads it or sets its mode.
  const linked = await refuseLinked(ctx, kind, file);
  if (linked !== undefined) return linked;
  try {
    return await handle(ctx, kind, file);
  } catch (error) {
    const reason = `the file could not be handled: ${errorMessage(error)}; once the cause is fixed, move it back into ${kind}/ to read it again`;
    try {
      return await reject(ctx, kind, file, reason, []);
    } catch (rejectError) {
      const why = `${reason}; moving it to .error failed as well (${errorMessage(rejectError)}), so it stays in .processing and is tried again next scan`;
      return { kind, file, status: 'failed', reason: why };
    }
  }
}

type Counts = Record<Exclude<Taken, 'conflict'>, number>;

/** Hands the messages over in batches; the name of one the store refuses, if any, ends it. */
async function handOver(ctx: HandleContext, messages: readonly InboxMessage[], taken: Counts) {
  for (let start = 0; start < messages.length;) {
    const batch = messages.slice(start, (start += HAND_OFF_BATCH));
    const outcomes = await ctx.accept(batch);
    const refused = outcomes.findIndex((outcome) => outcome === 'conflict');
    outcomes.forEach((outcome) => {
      if (outcome !== 'conflict') taken[outcome] += 1;
    });
    if (refused !== -1) return batch[refused]?.name;
  }
  return undefined;
}

async function handle(ctx: HandleContext, kind: InboxFolder, file: string): Promise<FileResult> {
  const path = join(ctx.layout.processing(kind), file);
  const archive = ctx.layout.archive(kind, dayIn(ctx.clock.now(), ctx.options.timeZone));
  // Its messages go by the name the archive keeps it under (`x.2.csv` beside an earlier
  // `x.csv`), so that trace and `inbox replay` of that file find its own messages. Read again
  // after a crash, before the move, it gets the same name.
  const archived = await freeName(archive, file);
  const read = await readInboxFile(ctx, kind, file, path, archived);
  if (!read.ok) return reject(ctx, kind, file, read.reason, read.problems);
  const taken: Counts = { accepted: 0, repeat: 0, overtaken: 0 };
  let refused: string | undefined;
  try {
    refused = await handOver(ctx, read.messages, taken);
  } catch (error) {
    if (handOffMayPass(error)) {
      const reason = `handing the message over failed: ${errorMessage(error)}; it stays in .processing and is tried again next scan`;
      return { kind, file, status: 'failed', reason };
    }
    const reason = `handing the message over failed: ${errorMessage(error)}; ${taken.accepted + taken.repeat + taken.overtaken} message(s) of the file were taken before; once the cause is fixed, move the file back into ${kind}/ to read it again`;
    return reject(ctx, kind, file, reason, []);
  }
  if (refused !== undefined) {
    const reason = `the database holds another message named ${refused}; rename the file to send it as a new message`;
    return reject(ctx, kind, file, reason, []);
  }
  const movedTo = await moveInto(path, archive, archived, ctx.options.fileMode);
  if (read.badRows.length === 0) {
    const { accepted, repeat, overtaken } = taken;
    const status = accepted === 0 && overtaken === 0 && repeat > 0 ? 'repeat' : 'accepted';
    const notes = read.notes === undefined || read.notes.length === 0 ? {} : { notes: read.notes };
    return { kind, file, status, ...taken, movedTo, ...notes };
  }
  const reason = `${read.badRows.length} problem(s) in rows; the other rows were accepted, the file is archived at ${movedTo}`;
  const { report } = await copyAside(ctx, kind, file, movedTo, { reason, problems: read.badRows });
  return { kind, file, status: 'partial', ...taken, problems: read.badRows, movedTo, report };
}
