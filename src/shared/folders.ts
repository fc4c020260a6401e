import { mkdirSync, type MakeDirectoryOptions } from 'node:fs';
import { dirname } from 'node:path';

type Mkdir = (path: string, options?: MakeDirectoryOptions) => Promise<unknown>;

const codeOf = (error: unknown): unknown => (error as { code?: unknown }).code;

/**
 * `mkdir -p`, one folder at a time: each missing parent is made first, then the folder, once.
 * Node's own `recursive: true` loops for good, at full CPU, where a file system answers ENOENT
 * for a folder whose parent exists (a path under /proc): a start or reload then never ended.
 * A folder (or file) already there is taken as it is; what is wrong with it shows at its use.
 */
export async function makeFolders(mkdir: Mkdir, path: string, mode?: number): Promise<void> {
  const options = mode === undefined ? {} : { mode };
  try {
    await mkdir(path, options);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return;
    const parent = dirname(path);
    if (codeOf(error) !== 'ENOENT' || parent === path) throw error;
    await makeFolders(mkdir, parent, mode);
    await mkdir(path, options).catch((again: unknown) => {
      if (codeOf(again) !== 'EEXIST') throw again;
    });
  }
}

/** makeFolders, synchronously (the database's folder, before anything runs). */
export function makeFoldersSync(path: string, mode?: number): void {
  const options = mode === undefined ? {} : { mode };
  try {
    mkdirSync(path, options);
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return;
    const parent = dirname(path);
    if (codeOf(error) !== 'ENOENT' || parent === path) throw error;
    makeFoldersSync(parent, mode);
    try {
      mkdirSync(path, options);
    } catch (again) {
      if (codeOf(again) !== 'EEXIST') throw again;
    }
  }
}
