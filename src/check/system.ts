import { lookup as dnsLookup } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { statfs as fsStatfs } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The addresses a host name resolves to. */
export type Lookup = (host: string) => Promise<readonly { address: string; family: number }[]>;

/** Free and total bytes of the file system holding `path`, for a user without special rights. */
export type StatFs = (path: string) => Promise<{ freeBytes: number; totalBytes: number }>;

export const systemLookup: Lookup = (host) => dnsLookup(host, { all: true });

export const systemStatfs: StatFs = async (path) => {
  const stats = await fsStatfs(path);
  return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
};

/** `path`, or its nearest parent that exists: where a folder not made yet will be. */
export function nearestExisting(path: string): string {
  let found = path;
  while (!existsSync(found) && dirname(found) !== found) found = dirname(found);
  return found;
}
