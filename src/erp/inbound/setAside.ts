/**
 * What the inbox sets aside in `.error/<kind>/`, each with a report `<name>.error.json` beside it:
 * a file it refuses, the copy of one some of whose rows it refused, and the report alone of an
 * entry that is no regular file (left where it is).
 */
import type { Stats } from 'node:fs';
import { copyFile, lstat, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Clock } from '../../shared/clock.js';
import { entryKind } from '../../shared/fileKind.js';
import { invalidUtf8Offset } from '../../shared/utf8.js';
import type { InboxFolder } from '../messages/kinds.js';
import type { Problem } from '../messages/problems.js';
import type { DroppedFile } from './entries.js';
import { fittedName, freeName, restrict, writeWhole, type InboxLayout } from './folders.js';
import type { FileResult } from './scanReport.js';

export interface AsideContext {
  layout: InboxLayout;
  clock: Clock;
  options: { fileMode: number };
}

type Rejected = Extract<FileResult, { status: 'rejected' }>;

/** What `<file>.error.json` says of a file (or of its bad rows), as text; `named`: more of its name. */
export function errorReportText(
  kind: InboxFolder,
  file: string,
  reason: string,
  problems: readonly Problem[],
  at: Date,
  named: { fileNameHex?: string } = {},
): string {
  const report = { file, ...named, kind, reason, problems, at: at.toISOString() };
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Why a file is set aside: what its report says; `fileNameHex`: a name that is not UTF-8. */
interface Why {
  reason: string;
  problems: Problem[];
  fileNameHex?: string;
}

async function writeReport(
  ctx: AsideContext,
  kind: InboxFolder,
  report: string,
  file: string,
  { reason, problems, ...named }: Why,
) {
  const text = errorReportText(kind, file, reason, problems, ctx.clock.now(), named);
  await writeWhole(report, text, ctx.options.fileMode);
}

/**
 * Puts a file into `.error/<kind>/` under `name` (or a free name beside an earlier one) by `put`,
 * after its report, which `why` words knowing that name. Its mode is narrowed unless `keepMode`:
 * a file with another name too (a hard link) is not ours to change.
 */
async function putAside(
  ctx: AsideContext,
  kind: InboxFolder,
  file: string,
  why: (movedAs: string) => Why,
  put: { name: string; to(target: string): Promise<void>; keepMode?: boolean },
): Promise<{ movedTo: string; report: string }> {
  const dir = ctx.layout.error(kind);
  const name = await freeName(dir, put.name);
  const report = join(dir, fittedName(name, '.error.json'));
  await writeReport(ctx, kind, report, file, why(name));
  const movedTo = join(dir, name);
  await put.to(movedTo);
  if (put.keepMode !== true) await restrict(movedTo, ctx.options.fileMode);
  return { movedTo, report };
}

/** Moves a claimed file (in `.processing/<kind>/`) to `.error/<kind>/` with its report. */
export async function reject(
  ctx: AsideContext,
  kind: InboxFolder,
  file: string,
  reason: string,
  problems: Problem[],
  keepMode = false,
): Promise<Rejected> {
  const from = join(ctx.layout.processing(kind), file);
  const to = (target: string) => rename(from, target);
  const why = () => ({ reason, problems });
  const aside = await putAside(ctx, kind, file, why, { name: file, to, keepMode });
  return { kind, file, status: 'rejected', reason, problems, ...aside };
}

/** A copy of an archived file whose bad rows `problems` names, beside their report; the copy's path. */
export async function copyAside(
  ctx: AsideContext,
  kind: InboxFolder,
  file: string,
  archived: string,
  why: { reason: string; problems: Problem[] },
): Promise<{ movedTo: string; report: string }> {
  const to = (target: string) => copyFile(archived, target);
  return putAside(ctx, kind, file, () => why, { name: file, to });
}

/** Why a claimed file is not read, or undefined when it is one regular file of one name. */
function linkRefusal(kind: InboxFolder, look: Stats): string | undefined {
  if (!look.isFile()) {
    return `the entry became ${entryKind(look)} while it was claimed; it was moved here as it is, not read or followed`;
  }
  if (look.nlink <= 1) return undefined;
  return `the file has ${look.nlink} hard links: a name outside the inbox may share it, so it is neither read nor given the inbox's file mode; it was moved here as it is. Copy the file into ${kind}/ rather than linking it`;
}

/**
 * Refuses a claimed file that is no regular file, or has more than one hard link: reading it, or
 * narrowing its mode, would touch a file outside the inbox that shares its inode. It is moved by
 * rename, which changes only names; nothing of it is read. Undefined: go on.
 */
export async function refuseLinked(
  ctx: AsideContext,
  kind: InboxFolder,
  file: string,
): Promise<Rejected | undefined> {
  const reason = linkRefusal(kind, await lstat(join(ctx.layout.processing(kind), file)));
  return reason === undefined ? undefined : reject(ctx, kind, file, reason, [], true);
}

/**
 * Moves a file whose name is not valid UTF-8, unread, to `.error/<kind>/` under its name with
 * `_` for each bad sequence (out of the inbox, it is reported once), its report beside it.
 */
export async function refuseUndecodable(
  ctx: AsideContext,
  kind: InboxFolder,
  file: DroppedFile & { bytes: Buffer },
): Promise<Rejected> {
  const hex = file.bytes.toString('hex');
  const offset = invalidUtf8Offset(file.bytes) ?? 0;
  const why = (movedAs: string): Why => ({
    reason:
      `the file name is not valid UTF-8 (its bytes: ${hex}; first bad byte at offset ${offset}), ` +
      `so the file was not read; it was moved here as "${movedAs}". Have the ERP name its files ` +
      `in UTF-8, then put the message back into ${kind}/ under such a name`,
    problems: [],
    fileNameHex: hex,
  });
  const { nlink } = await lstat(file.path);
  const to = (target: string) => rename(file.path, target);
  const name = file.name.replaceAll('\uFFFD', '_');
  const aside = await putAside(ctx, kind, file.name, why, { name, to, keepMode: nlink !== 1 });
  const { reason } = why(basename(aside.movedTo));
  return { kind, file: file.name, status: 'rejected', reason, problems: [], ...aside };
}

/** The report on an entry of `kind`'s folder that is no regular file, which stays where it is. */
export async function reportEntry(
  ctx: AsideContext,
  kind: InboxFolder,
  name: string,
  reason: string,
): Promise<string> {
  const dir = ctx.layout.error(kind);
  // A new report beside any earlier one of that name.
  const report = join(dir, await freeName(dir, fittedName(name, '.error.json')));
  await writeReport(ctx, kind, report, name, { reason, problems: [] });
  return report;
}
