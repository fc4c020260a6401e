import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../../../shared/errors.js';

/** The file system calls the outbox makes; injected so a test can make a disk fill up. */
export type OutboxFs = Pick<
  typeof nodeFs,
  'open' | 'rename' | 'readFile' | 'readdir' | 'unlink' | 'mkdir'
>;

export const nodeOutboxFs: OutboxFs = nodeFs;

type WriteResult = { status: 'written' | 'identical' | 'conflict'; path: string };

const TEMP_NAME = /^\..+\.tmp-[0-9a-f]{12}$/;

/** What `read` gives, or undefined where the file or folder is not there. */
async function ifThere<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The names in `dir`, or undefined when it is not there. */
export const namesIn = (fs: OutboxFs, dir: string): Promise<string[] | undefined> =>
  ifThere(() => fs.readdir(dir));

/** Makes the renames into `dir` durable: one fsync covers every file renamed into it so far. */
export async function fsyncFolder(fs: OutboxFs, dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some network file systems cannot fsync a folder; the rename itself is still atomic there.
    if (errorCode(error) !== 'EINVAL') throw error;
  } finally {
    await handle.close();
  }
}

async function writeTemp(
  fs: OutboxFs,
  path: string,
  data: Uint8Array,
  mode: number,
): Promise<void> {
  const handle = await fs.open(path, 'wx', mode);
  try {
    // open() narrows the mode by the umask; the configured mode is meant exactly.
    await handle.chmod(mode);
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Puts `data` at `dir/name` so that a reader never sees half of it: a hidden temp file in the
 * same folder, fsynced, renamed; durable once the caller fsyncs the folder (`fsyncFolder`, once
 * for all the files). A file already there with the same bytes is a repeat after a crash
 * (`identical`), with others it is left alone (`conflict`); `present`: the folder's names as
 * just listed. The daemon's writer lock keeps one writer per outbox: check-then-rename cannot race.
 */
export async function renameIntoPlace(
  fs: OutboxFs,
  dir: string,
  name: string,
  data: Uint8Array,
  mode: number,
  present: ReadonlySet<string>,
): Promise<WriteResult> {
  const path = join(dir, name);
  const existing = present.has(name) ? await ifThere(() => fs.readFile(path)) : undefined;
  if (existing !== undefined) {
    return { status: Buffer.from(data).equals(existing) ? 'identical' : 'conflict', path };
  }
  const temp = join(dir, `.${name}.tmp-${randomBytes(6).toString('hex')}`);
  try {
    await writeTemp(fs, temp, data, mode);
    await fs.rename(temp, path);
  } catch (error) {
    // The temp file may never have been made; the write's own error is the one to tell.
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  return { status: 'written', path };
}

/**
 * Removes temp files a crash left behind in `dir`; returns their names. One gone meanwhile is no
 * matter: a writer that had not quite ended (the daemon a reload replaces) renamed or removed it.
 */
export async function removeStaleTemps(fs: OutboxFs, dir: string): Promise<string[]> {
  const stale = ((await namesIn(fs, dir)) ?? []).filter((name) => TEMP_NAME.test(name));
  for (const name of stale) {
    await fs.unlink(join(dir, name)).catch((error: unknown) => {
      if (errorCode(error) !== 'ENOENT') throw error;
    });
  }
  return stale;
}
