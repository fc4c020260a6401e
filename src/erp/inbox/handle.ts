import { createHash } from 'node:crypto';
import { copyFile, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import { errorMessage } from '../../shared/errors.js';
import { dayIn } from '../../shared/timeZone.js';
import type { InboxKind, InboxMessage } from '../adapter.js';
import { parseArticleCsv } from './articleCsv.js';
import { decode, extensionProblem, fileNameProblem } from './checks.js';
import { freeName, moveInto, writeWhole, type InboxLayout } from './layout.js';
import type { InboxOptions } from './options.js';
import type { Problem } from './problems.js';
import type { FileResult } from './report.js';
import { inboxProblems } from './schemas.js';

export type Accept = (message: InboxMessage) => Promise<'accepted' | 'repeat'>;

export interface HandleContext {
  layout: InboxLayout;
  options: InboxOptions;
  clock: Clock;
  accept: Accept;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

type Messages =
  | { ok: true; messages: InboxMessage[]; badRows: Problem[] }
  | { ok: false; reason: string; problems: Problem[] };

function jsonMessages(kind: InboxKind, name: string, text: string, bytes: Buffer): Messages {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${errorMessage(error)}`, problems: [] };
  }
  const problems = inboxProblems(kind, json);
  if (problems.length > 0) {
    return { ok: false, reason: `not a valid ${kind} message`, problems };
  }
  const body = json as Record<string, unknown>;
  return {
    ok: true,
    messages: [{ kind, source: 'file', name, sha256: sha256(bytes), body }],
    badRows: [],
  };
}

function csvMessages(name: string, text: string, options: InboxOptions): Messages {
  const csv = parseArticleCsv(text, options.csv);
  if (!csv.ok) return { ok: false, reason: 'not a readable article CSV', problems: csv.problems };
  const badRows = csv.rows.flatMap((row) => row.problems);
  if (badRows.length > 0 && options.csvAllOrNothing) {
    const reason = 'rows with problems; csvAllOrNothing rejects the whole file';
    return { ok: false, reason, problems: badRows };
  }
  const messages = csv.rows
    .filter((row) => row.problems.length === 0)
    .map((row): InboxMessage => {
      const body = row.body;
      return {
        kind: 'article',
        source: 'file',
        name: `${name}#row${row.row}`,
        sha256: sha256(JSON.stringify(body)),
        body,
      };
    });
  return { ok: true, messages, badRows };
}

async function writeReport(
  ctx: HandleContext,
  kind: InboxKind,
  file: string,
  target: string,
  reason: string,
  problems: Problem[],
) {
  const report = `${target}.error.json`;
  const at = ctx.clock.now().toISOString();
  await writeWhole(report, `${JSON.stringify({ file, kind, reason, problems, at }, null, 2)}\n`);
  return report;
}

/** Moves the claimed file to `.error/<kind>/` with `<file>.error.json` beside it. */
async function reject(
  ctx: HandleContext,
  kind: InboxKind,
  file: string,
  reason: string,
  problems: Problem[],
): Promise<FileResult> {
  const dir = ctx.layout.error(kind);
  const movedTo = join(dir, await freeName(dir, file));
  const report = await writeReport(ctx, kind, file, movedTo, reason, problems);
  await rename(join(ctx.layout.processing(kind), file), movedTo);
  return { kind, file, status: 'rejected', reason, problems, movedTo, report };
}

async function readMessages(ctx: HandleContext, kind: InboxKind, file: string): Promise<Messages> {
  const refusal = fileNameProblem(file) ?? extensionProblem(kind, file);
  if (refusal !== undefined) return { ok: false, reason: refusal, problems: [] };
  const path = join(ctx.layout.processing(kind), file);
  const { size } = await stat(path);
  if (size > ctx.options.maxFileBytes) {
    const reason = `the file has ${size} bytes, more than maxFileBytes (${ctx.options.maxFileBytes})`;
    return { ok: false, reason, problems: [] };
  }
  const bytes = await readFile(path);
  const isCsv = file.toLowerCase().endsWith('.csv');
  const decoded = decode(bytes, isCsv ? ctx.options.csv.encoding : ctx.options.charset);
  if (!decoded.ok) return { ok: false, reason: decoded.reason, problems: [] };
  return isCsv
    ? csvMessages(file, decoded.text, ctx.options)
    : jsonMessages(kind, file, decoded.text, bytes);
}

/**
 * Checks a claimed file (in `.processing/<kind>/`), hands its messages to `accept` and moves it
 * to the archive, or to `.error` with a report. The hand-off happens before the move, so a crash
 * in between only means the file is read again and `accept` answers `repeat`.
 */
export async function handleClaimed(
  ctx: HandleContext,
  kind: InboxKind,
  file: string,
): Promise<FileResult> {
  const read = await readMessages(ctx, kind, file);
  if (!read.ok) return reject(ctx, kind, file, read.reason, read.problems);
  let accepted = 0;
  let repeat = 0;
  try {
    for (const message of read.messages) {
      if ((await ctx.accept(message)) === 'repeat') repeat += 1;
      else accepted += 1;
    }
  } catch (error) {
    const reason = `handing the message over failed: ${errorMessage(error)}; it stays in .processing and is tried again next scan`;
    return { kind, file, status: 'failed', reason };
  }
  const path = join(ctx.layout.processing(kind), file);
  const day = dayIn(ctx.clock.now(), ctx.options.timeZone);
  const movedTo = await moveInto(path, ctx.layout.archive(kind, day), file);
  if (read.badRows.length === 0) {
    const status = accepted === 0 && repeat > 0 ? 'repeat' : 'accepted';
    return { kind, file, status, accepted, repeat, movedTo };
  }
  const dir = ctx.layout.error(kind);
  const copy = join(dir, await freeName(dir, file));
  const reason = `${read.badRows.length} problem(s) in rows; the other rows were accepted, the file is archived at ${movedTo}`;
  const report = await writeReport(ctx, kind, file, copy, reason, read.badRows);
  await copyFile(movedTo, copy);
  return {
    kind,
    file,
    status: 'partial',
    accepted,
    repeat,
    problems: read.badRows,
    movedTo,
    report,
  };
}
