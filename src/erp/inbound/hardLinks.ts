import type { Stats } from 'node:fs';
import { lstat, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { entryKind } from '../../shared/fileKind.js';
import type { HandleContext } from './handOff.js';
import { fittedName, freeName, writeWhole, type InboxFolder } from './folders.js';
import type { FileResult } from './scanReport.js';

/** Why a claimed file is not read, or undefined when it is one regular file of one name. */
function refusal(kind: InboxFolder, look: Stats): string | undefined {
  if (!look.isFile()) {
    return `the entry became ${entryKind(look)} while it was claimed; it was moved here as it is, not read or followed`;
  }
  if (look.nlink <= 1) return undefined;
  return `the file has ${look.nlink} hard links: a name outside the inbox may share it, so it is neither read nor given the inbox's file mode; it was moved here as it is. Copy the file into ${kind}/ rather than linking it`;
}

/**
 * Refuses a claimed file (in `.processing/<kind>/`) that is no regular file, or has more than
 * one hard link: reading it could read, and narrowing its mode would change, a file outside the
 * inbox that shares its inode. It is moved to `.error/<kind>/` by rename, which changes only
 * names, never the inode's content, owner or mode; nothing of it is read. Undefined: go on.
 */
export async function refuseLinked(
  ctx: HandleContext,
  kind: InboxFolder,
  file: string,
): Promise<FileResult | undefined> {
  const from = join(ctx.layout.processing(kind), file);
  const reason = refusal(kind, await lstat(from));
  if (reason === undefined) return undefined;
  const dir = ctx.layout.error(kind);
  const movedTo = join(dir, await freeName(dir, file));
  const report = join(dir, fittedName(basename(movedTo), '.error.json'));
  const at = ctx.clock.now().toISOString();
  const text = `${JSON.stringify({ file, kind, reason, problems: [], at }, null, 2)}\n`;
  await writeWhole(report, text, ctx.options.fileMode);
  await rename(from, movedTo);
  return { kind, file, status: 'rejected', reason, problems: [], movedTo, report };
}
