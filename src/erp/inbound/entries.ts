/**
 * The entries of an inbox folder as a scan lists them: the files it may take, by name or, where
 * a name is not valid UTF-8, by its bytes, and the entries that are no regular file.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { errorCode } from '../../shared/errors.js';
import { invalidUtf8Offset } from '../../shared/utf8.js';

/** Beside a file once it is whole (`doneMarker`): `<file>.done`. */
export const MARKER = '.done';

/** A regular file of an inbox folder. */
export interface DroppedFile {
  /**
   * Node reads a name that is not valid UTF-8 with U+FFFD for the bad bytes, a name no file has:
   * such a file is reached by `path` alone, which is then bytes.
   */
  name: string;
  path: string | Buffer;
  /** A key for the completeness tracker, one per name. */
  key: string;
  /** A name that is not valid UTF-8: its bytes. */
  bytes?: Buffer;
}

/** Where the `.done` marker of a file is: marker and file share the bytes of its name. */
export const markerOf = (path: string | Buffer): string | Buffer =>
  typeof path === 'string' ? `${path}${MARKER}` : Buffer.concat([path, Buffer.from(MARKER)]);

export const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Hidden files are the ERP's own temp files; a name starting with `..` is read and refused. */
const isCandidate = (name: string) =>
  (!name.startsWith('.') || name.startsWith('..')) && !name.endsWith(MARKER);

/** The entries of `dir`; `readdir` tells a link from its target, so no link is followed. */
async function listed(dir: string): Promise<Dirent<Buffer>[]> {
  try {
    return await readdir(dir, { encoding: 'buffer', withFileTypes: true });
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
}

function droppedFile(dir: string, bytes: Buffer): DroppedFile {
  const name = bytes.toString('utf8');
  if (invalidUtf8Offset(bytes) === undefined) {
    const path = join(dir, name);
    return { name, path, key: path };
  }
  const path = Buffer.concat([Buffer.from(`${dir}${sep}`), bytes]);
  return { name, path, key: join(dir, `\0${bytes.toString('hex')}`), bytes };
}

/**
 * The regular files of `dir` in name order (those whose name is not valid UTF-8 after them), and
 * the names of its other entries. Hidden names and markers are left out unless `all`. A folder
 * that is not there has none.
 */
export async function entriesOf(
  dir: string,
  all = false,
): Promise<{ files: DroppedFile[]; others: string[] }> {
  const entries = (await listed(dir)).filter((e) => all || isCandidate(e.name.toString('utf8')));
  const files = entries.filter((e) => e.isFile()).map((e) => droppedFile(dir, e.name));
  const named = files.filter((file) => file.bytes === undefined);
  const others = entries.filter((e) => !e.isFile()).map((e) => e.name.toString('utf8'));
  return {
    files: [
      ...named.sort((a, b) => byName(a.name, b.name)),
      ...files.filter((file) => file.bytes !== undefined),
    ],
    others: others.sort(byName),
  };
}
