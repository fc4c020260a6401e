import { createHash, randomBytes } from 'node:crypto';
import { access, chmod, mkdir, open, rename } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { makeFolders } from '../../shared/folders.js';
import { errorCode } from '../../shared/errors.js';
import type { InboxFolder } from '../messages/kinds.js';

/** The inbox's folders (docs/readme/file-drop.md, "Inbox"). */
export interface InboxLayout {
  root: string;
  kind(kind: InboxFolder): string;
  processing(kind: InboxFolder): string;
  archive(kind: InboxFolder, day: string): string;
  error(kind: InboxFolder): string;
}

export const PROCESSING = '.processing';
export const ARCHIVE = '.archive';
export const ERROR = '.error';

export function layoutOf(root: string): InboxLayout {
  return {
    root,
    kind: (kind) => join(root, kind),
    processing: (kind) => join(root, PROCESSING, kind),
    archive: (kind, day) => join(root, ARCHIVE, kind, day),
    error: (kind) => join(root, ERROR, kind),
  };
}

export const exists = (path: string | Buffer): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** The longest file name, in bytes, that Linux, macOS and Windows file systems take. */
const NAME_MAX_BYTES = 255;
const HASH_CHARS = 8;

/** The longest start of `text` that fits in `maxBytes` of UTF-8, never cutting a character. */
function startWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * `name` + `suffix`, or, when that is longer than a file name may be, the start of `name`,
 * `~`, 8 hex characters of the SHA-256 of the whole `name`, and `suffix`: still one name per
 * original name, so two long names that start alike do not meet.
 */
export function fittedName(name: string, suffix: string): string {
  const whole = `${name}${suffix}`;
  if (Buffer.byteLength(whole) <= NAME_MAX_BYTES) return whole;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_CHARS);
  const room = NAME_MAX_BYTES - Buffer.byteLength(suffix) - HASH_CHARS - 1;
  return `${startWithin(name, room)}~${hash}${suffix}`;
}

/** `name`, or `stem.2.ext`, `stem.3.ext`, ... when an earlier file of that name is there. */
export async function freeName(dir: string, name: string): Promise<string> {
  await makeFolders(mkdir, dir);
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  let candidate = name;
  for (let n = 2; await exists(join(dir, candidate)); n += 1)
    candidate = fittedName(stem, `.${n}${extension}`);
  return candidate;
}

/** Narrows a file the ERP wrote to `mode`; one of another user keeps its owner's mode. */
export async function restrict(path: string, mode: number): Promise<void> {
  try {
    await chmod(path, mode);
  } catch (error) {
    if (errorCode(error) !== 'EPERM') throw error;
  }
}

/** Moves a file into `dir` without replacing anything there, with `mode`; returns where it went. */
export async function moveInto(
  from: string,
  dir: string,
  name: string,
  mode: number,
): Promise<string> {
  const target = join(dir, await freeName(dir, name));
  await rename(from, target);
  await restrict(target, mode);
  return target;
}

/** Writes a small file whole or not at all; the temp name is short, to fit where `path` fits. */
export async function writeWhole(path: string, text: string, mode: number): Promise<void> {
  const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode);
  try {
    await handle.chmod(mode);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}
