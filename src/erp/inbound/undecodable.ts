import { lstat, readdir, rename } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { invalidUtf8Offset } from '../../shared/utf8.js';
import {
  fittedName,
  freeName,
  restrict,
  writeWhole,
  type InboxFolder,
  type InboxLayout,
} from './folders.js';
import type { InboxOptions } from './options.js';
import type { FileResult } from './scanReport.js';

const DOT = 0x2e;
const MARKER = Buffer.from('.done');

/**
 * A regular file of a kind folder whose name is not valid UTF-8, by its bytes. Node reads such a
 * name with U+FFFD in place of the bad bytes (`lossy`), a name no file has: every look through
 * it fails, so it is handled apart, by its bytes.
 */
export interface UndecodableFile {
  bytes: Buffer;
  lossy: string;
  /** Where it is, as bytes: the only path that reaches it. */
  path: Buffer;
  /** A key for the completeness tracker, one per name; not a path. */
  key: string;
}

/** As the scanner's candidates: hidden names (the ERP's temp files) and markers are not files. */
function isCandidate(name: Buffer): boolean {
  const hidden = name[0] === DOT && name[1] !== DOT;
  const marker = name.length > MARKER.length && name.subarray(-MARKER.length).equals(MARKER);
  return !hidden && !marker;
}

/** The regular files of `dir` whose names are not valid UTF-8. */
export async function undecodableFiles(dir: string): Promise<UndecodableFile[]> {
  const entries = await readdir(dir, { encoding: 'buffer', withFileTypes: true }).catch(
    (error: unknown) => {
      if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
      throw error;
    },
  );
  return entries
    .filter((e) => e.isFile() && isCandidate(e.name) && invalidUtf8Offset(e.name) !== undefined)
    .map(({ name }) => ({
      bytes: name,
      lossy: name.toString('utf8'),
      path: Buffer.concat([Buffer.from(`${dir}${sep}`), name]),
      key: join(dir, `\0${name.toString('hex')}`),
    }));
}

/** Whether its `.done` marker is there (with markers on): marker and file share the bad bytes. */
export async function markerThere(file: UndecodableFile): Promise<boolean> {
  return lstat(Buffer.concat([file.path, MARKER])).then(
    () => true,
    () => false,
  );
}

function reasonFor(file: UndecodableFile, kind: InboxFolder, movedAs: string): string {
  const offset = invalidUtf8Offset(file.bytes) ?? 0;
  return (
    `the file name is not valid UTF-8 (its bytes: ${file.bytes.toString('hex')}; first bad byte ` +
    `at offset ${offset}), so the file was not read; it was moved here as "${movedAs}". ` +
    `Have the ERP name its files in UTF-8, then put the message back into ${kind}/ under such a name`
  );
}

/**
 * Moves a file whose name is not valid UTF-8, unread, to `.error/<kind>/` under its name with
 * `_` for each bad sequence, and writes the report beside it: once there, it is out of the
 * inbox, so it is reported once. A file with another name too (a hard link) keeps its mode: it
 * is not ours to change.
 */
export async function refuseUndecodable(
  layout: InboxLayout,
  options: InboxOptions,
  now: Date,
  kind: InboxFolder,
  file: UndecodableFile,
): Promise<FileResult> {
  const dir = layout.error(kind);
  const movedAs = await freeName(dir, file.lossy.replaceAll('\uFFFD', '_'));
  const movedTo = join(dir, movedAs);
  const reason = reasonFor(file, kind, movedAs);
  const report = join(dir, fittedName(movedAs, '.error.json'));
  const at = now.toISOString();
  const body = { file: file.lossy, fileNameHex: file.bytes.toString('hex'), kind, reason };
  const text = `${JSON.stringify({ ...body, problems: [], at }, null, 2)}\n`;
  await writeWhole(report, text, options.fileMode);
  const { nlink } = await lstat(file.path);
  await rename(file.path, movedTo);
  if (nlink === 1) await restrict(movedTo, options.fileMode);
  const result = { kind, file: file.lossy, status: 'rejected' } as const;
  return { ...result, reason, problems: [], movedTo, report };
}
