import { randomBytes } from 'node:crypto';
import { access, mkdir, open, rename } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { InboxKind } from '../adapter.js';

/** The inbox's folders (docs/readme/file-drop.md, "Inbox"). */
export interface InboxLayout {
  root: string;
  kind(kind: InboxKind): string;
  processing(kind: InboxKind): string;
  archive(kind: InboxKind, day: string): string;
  error(kind: InboxKind): string;
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

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** `name`, or `stem.2.ext`, `stem.3.ext`, ... when an earlier file of that name is there. */
export async function freeName(dir: string, name: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  let candidate = name;
  for (let n = 2; await exists(join(dir, candidate)); n += 1)
    candidate = `${stem}.${n}${extension}`;
  return candidate;
}

/** Moves a file into `dir` without replacing anything there; returns where it went. */
export async function moveInto(from: string, dir: string, name: string): Promise<string> {
  const target = join(dir, await freeName(dir, name));
  await rename(from, target);
  return target;
}

/** Writes a small file whole or not at all (temp name, fsync, rename). */
export async function writeWhole(path: string, text: string): Promise<void> {
  const temp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path);
}
