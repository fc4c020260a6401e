import { copyFile, readFile, rename, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import { TransientError, errorMessage } from '../../shared/errors.js';
import { readStrictJson } from '../../shared/strictJson.js';
import { dayIn } from '../../shared/timeZone.js';
import type { InboxMessage } from '../adapter.js';
import { parseArticleCsv } from '../formats/csv/article.js';
import { ERP_MESSAGE_BOUNDS } from '../messages/bounds.js';
import { decode, extensionProblem, fileNameProblem } from './fileNames.js';
import {
  fittedName,
  freeName,
  moveInto,
  OPENTRANS_FOLDER,
  restrict,
  writeWhole,
  type InboxFolder,
  type InboxLayout,
} from './folders.js';
import { openTransFile } from '../formats/openTrans/messages.js';
import type { Problem } from '../messages/problems.js';
import type { FileResult } from './scanReport.js';
import type { InboxKind } from '../messages/kinds.js';
import type { FileMessages, ReadContext } from '../formats/format.js';
import { checkMessage } from '../messages/check.js';
import { inboxMessage, rowsName } from '../messages/identity.js';
import { oneMessagePerKey, type RowMessage } from '../messages/merge.js';
import { withoutStamp } from '../messages/stamp.js';
import { mappedFileMessages } from '../formats/records.js';

/**
 * What the store made of a message: `conflict`, it holds another message under this name and
 * refuses this one; `overtaken`, an older message than the last one handled for its entity,
 * not queued.
 */
export type Taken = 'accepted' | 'repeat' | 'overtaken' | 'conflict';

/**
 * Keeps messages of one file durably, all of them or none (one SQLite transaction), and says
 * what became of each, in their order.
 */
export type Accept = (messages: readonly InboxMessage[]) => Promise<Taken[]>;

/**
 * Messages handed over in one transaction: a file's rows commit together, not one by one (each
 * commit costs more than keeping a message), while a file of 10,000 rows holds the database
 * for a few hundred messages at a time, not for all of them.
 */
const HAND_OFF_BATCH = 500;

/** What handling a claimed file takes beyond reading it: its folders, the clock, the hand-off. */
export interface HandleContext extends ReadContext {
  layout: InboxLayout;
  clock: Clock;
  accept: Accept;
}

type Messages = FileMessages;

function jsonMessages(
  ctx: ReadContext,
  kind: InboxKind | undefined,
  name: string,
  text: string,
): Messages {
  // Only the kinds' folders and openTRANS's are scanned: every other folder is an unknown entry.
  if (kind === undefined) return { ok: false, reason: 'not an inbox kind folder', problems: [] };
  const read = readStrictJson(text, ERP_MESSAGE_BOUNDS);
  if (!read.ok) return { ok: false, reason: read.reason, problems: [] };
  const checked = checkMessage(kind, read.value, ctx.options.unknownFields);
  if (!checked.ok) {
    return { ok: false, reason: `not a valid ${kind.name} message`, problems: checked.problems };
  }
  if (checked.dropped.length > 0) ctx.dropped?.(kind.name, checked.dropped);
  const message = inboxMessage(kind, 'file', name, checked.body, checked.stamp);
  return { ok: true, messages: [message], badRows: [] };
}

function csvMessages(ctx: ReadContext, name: string, text: string): Messages {
  const { options } = ctx;
  const article = ctx.kinds.formats.article;
  const csv = parseArticleCsv(text, options.csv, article);
  if (!csv.ok) return { ok: false, reason: 'not a readable article CSV', problems: csv.problems };
  const badRows = csv.rows.flatMap((row) => row.problems);
  if (badRows.length > 0 && options.csvAllOrNothing) {
    const reason = 'rows with problems; csvAllOrNothing rejects the whole file';
    return { ok: false, reason, problems: badRows };
  }
  const good: RowMessage[] = [];
  const badKeys = new Set<string>();
  for (const row of csv.rows) {
    if (row.problems.length > 0) badKeys.add(article.key(row.body));
    else {
      const { body, stamp } = withoutStamp(row.body);
      good.push({
        body,
        ...(stamp === undefined ? {} : { stamp }),
        rows: [row.row],
        places: [{ row: row.row }],
      });
    }
  }
  const merged = oneMessagePerKey(article, good, badKeys, 'row');
  const messages = merged.messages.map(({ rows, body, stamp }) =>
    inboxMessage(article, 'file', rowsName(name, rows), body, stamp),
  );
  const problems = [...badRows, ...merged.problems].sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  if (messages.length === 0) {
    return { ok: false, reason: 'no row of the file could be taken', problems };
  }
  return { ok: true, messages, badRows: problems };
}

/** What `<file>.error.json` says of a rejected file (or of its bad rows), as text. */
export function errorReportText(
  kind: InboxFolder,
  file: string,
  reason: string,
  problems: readonly Problem[],
  at: Date,
): string {
  const report = { file, kind, reason, problems, at: at.toISOString() };
  return `${JSON.stringify(report, null, 2)}\n`;
}

async function writeReport(
  ctx: HandleContext,
  kind: InboxFolder,
  file: string,
  target: string,
  reason: string,
  problems: Problem[],
) {
  const report = join(dirname(target), fittedName(basename(target), '.error.json'));
  const text = errorReportText(kind, file, reason, problems, ctx.clock.now());
  await writeWhole(report, text, ctx.options.fileMode);
  return report;
}

/** Moves the claimed file to `.error/<kind>/` with `<file>.error.json` beside it. */
async function reject(
  ctx: HandleContext,
  kind: InboxFolder,
  file: string,
  reason: string,
  problems: Problem[],
): Promise<FileResult> {
  const dir = ctx.layout.error(kind);
  const movedTo = join(dir, await freeName(dir, file));
  const report = await writeReport(ctx, kind, file, movedTo, reason, problems);
  await rename(join(ctx.layout.processing(kind), file), movedTo);
  await restrict(movedTo, ctx.options.fileMode);
  return { kind, file, status: 'rejected', reason, problems, movedTo, report };
}

/** Taken only after it stayed empty a while (or its marker came), so nothing more will come. */
const EMPTY_FILE_REASON =
  'the file is empty; write the message again, under a hidden name first and renamed once whole';

/**
 * The messages of the file `file` of `kind`'s folder, read and checked at `path` as the inbox
 * reads a file it claimed; names the messages by `named` (the name the archive keeps the file
 * under; `file` where it lies). Moves and keeps nothing, so it also reads a file where it lies
 * (`inbox replay` in the archive).
 */
export async function readInboxFile(
  ctx: ReadContext,
  kind: InboxFolder,
  file: string,
  path: string,
  named = file,
): Promise<FileMessages> {
  const mapped = ctx.mappings?.get(kind)?.spec.format;
  const refusal = fileNameProblem(file) ?? extensionProblem(kind, file, mapped);
  if (refusal !== undefined) return { ok: false, reason: refusal, problems: [] };
  const { size } = await stat(path);
  if (size > ctx.options.maxFileBytes) {
    const reason = `the file has ${size} bytes, more than maxFileBytes (${ctx.options.maxFileBytes})`;
    return { ok: false, reason, problems: [] };
  }
  if (size === 0) return { ok: false, reason: EMPTY_FILE_REASON, problems: [] };
  const bytes = await readFile(path);
  // An XML file says its encoding itself; safeXml.ts reads it by that, not by `charset`.
  if (kind === OPENTRANS_FOLDER) {
    const answer = await openTransFile(named, bytes, ctx.kinds, ctx.openTrans ?? {});
    return answer.ok ? { ...answer, badRows: [] } : answer;
  }
  const mappedFile = mappedFileMessages(ctx, kind, file, bytes, named);
  if (mappedFile !== undefined) return mappedFile;
  const isCsv = file.toLowerCase().endsWith('.csv');
  const decoded = decode(bytes, isCsv ? ctx.options.csv.encoding : ctx.options.charset);
  if (!decoded.ok) return { ok: false, reason: decoded.reason, problems: [] };
  return isCsv
    ? csvMessages(ctx, named, decoded.text)
    : jsonMessages(ctx, ctx.kinds.find(kind), named, decoded.text);
}

/** SQLite busy, locked, full or briefly unwritable: the same hand-off may pass next scan. */
const PASSING_STORE_CODE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|PERM|NOMEM)/;

function handOffMayPass(error: unknown): boolean {
  if (error instanceof TransientError) return true;
  const code: unknown = error instanceof Error && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && PASSING_STORE_CODE.test(code);
}

/**
 * Checks a claimed file (in `.processing/<kind>/`), hands its messages to `accept` and moves it
 * to the archive, or to `.error` with a report. The hand-off happens before the move, so a crash
 * in between only means the file is read again and `accept` answers `repeat`. Whatever else
 * goes wrong with the file (it cannot be read, archived, or the hand-off fails the same way
 * every time) also ends it in `.error` with a report, so that no file is read over and over.
 */
export async function handleClaimed(
  ctx: HandleContext,
  kind: InboxFolder,
  file: string,
): Promise<FileResult> {
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

async function handle(ctx: HandleContext, kind: InboxFolder, file: string): Promise<FileResult> {
  const path = join(ctx.layout.processing(kind), file);
  const archive = ctx.layout.archive(kind, dayIn(ctx.clock.now(), ctx.options.timeZone));
  // Its messages go by the name the archive keeps it under (`x.2.csv` beside an earlier
  // `x.csv`), so that trace and `inbox replay` of that file find its own messages. Read again
  // after a crash, before the move, it gets the same name.
  const archived = await freeName(archive, file);
  const read = await readInboxFile(ctx, kind, file, path, archived);
  if (!read.ok) return reject(ctx, kind, file, read.reason, read.problems);
  const taken = { accepted: 0, repeat: 0, overtaken: 0 };
  let refused: string | undefined;
  try {
    for (let start = 0; start < read.messages.length && refused === undefined;) {
      const batch = read.messages.slice(start, (start += HAND_OFF_BATCH));
      const outcomes = await ctx.accept(batch);
      outcomes.forEach((outcome, index) => {
        if (outcome !== 'conflict') taken[outcome] += 1;
        else refused ??= batch[index]?.name;
      });
    }
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
  const { accepted, repeat } = taken;
  if (read.badRows.length === 0) {
    const status = accepted === 0 && taken.overtaken === 0 && repeat > 0 ? 'repeat' : 'accepted';
    const notes = read.notes === undefined || read.notes.length === 0 ? {} : { notes: read.notes };
    return { kind, file, status, ...taken, movedTo, ...notes };
  }
  const dir = ctx.layout.error(kind);
  const copy = join(dir, await freeName(dir, file));
  const reason = `${read.badRows.length} problem(s) in rows; the other rows were accepted, the file is archived at ${movedTo}`;
  const report = await writeReport(ctx, kind, file, copy, reason, read.badRows);
  await copyFile(movedTo, copy);
  await restrict(copy, ctx.options.fileMode);
  return {
    kind,
    file,
    status: 'partial',
    ...taken,
    problems: read.badRows,
    movedTo,
    report,
  };
}
