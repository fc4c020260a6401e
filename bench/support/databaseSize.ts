import { stat } from 'node:fs/promises';

/** Bytes of the database file at `path` and its write-ahead log (a missing one counts 0). */
export async function sizeOnDisk(path: string): Promise<number> {
  const sizes = await Promise.all(
    [path, `${path}-wal`].map((file) =>
      stat(file).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
