import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { entryKind } from '../shared/fileKind.js';

/** A secret (`apiKeyFile`, `tokenFile`, `passwordFile`) is a line; a PEM key is ~3 KiB. */
export const SECRET_FILE_MAX_BYTES = 64 * 1024;
/** The config file and `platform.caFile`: a full CA bundle is ~220 KiB. */
export const CONFIG_FILE_MAX_BYTES = 1024 * 1024;

export type BoundedRead = { ok: true; bytes: Buffer } | { ok: false; reason: string };

/**
 * Without O_NONBLOCK, opening a FIFO waits for a writer for ever; O_NOCTTY keeps a terminal
 * device from becoming ours. Neither changes how a regular file reads.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** `64 KiB`, `1 MiB`: bounds as the docs write them. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/** Reads up to `limit + 1` bytes: a file that grew past `fstat`'s size, or `/proc`, still stops. */
function readAtMost(fd: number, limit: number): Buffer {
  const buffer = Buffer.alloc(limit + 1);
  let filled = 0;
  for (let n = -1; n !== 0 && filled < buffer.length; filled += n) {
    n = readSync(fd, buffer, filled, buffer.length - filled, null);
  }
  return buffer.subarray(0, filled);
}

/**
 * The whole file at `path` if it is a regular file (a symlink to one is followed: Kubernetes
 * mounts secrets so) of at most `maxBytes`. It is opened once and checked on that descriptor,
 * so what is checked is what is read; `/dev/zero` or a FIFO is refused before any byte is read.
 * Errors of `open` itself (ENOENT, EACCES) are thrown for the caller to word.
 */
export function readBounded(path: string, maxBytes: number): BoundedRead {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: `that is ${entryKind(stat)}, not a file` };
    const tooLarge = {
      ok: false,
      reason: `the file is larger than ${sizeText(maxBytes)}`,
    } as const;
    if (stat.size > maxBytes) return tooLarge;
    const bytes = readAtMost(fd, maxBytes);
    return bytes.length > maxBytes ? tooLarge : { ok: true, bytes };
  } finally {
    closeSync(fd);
  }
}
