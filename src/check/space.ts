import { bytesText } from '../shared/bytes.js';
import { fail, pass, warn, type Outcome } from './verdict.js';

/** Below this a pull batch, a WAL checkpoint or an ERP file may not fit: the daemon stalls. */
export const FAIL_BELOW_BYTES = 100 * 1024 * 1024;
/** Below this a large first pull or a backup does not fit. */
export const WARN_BELOW_BYTES = 1024 * 1024 * 1024;

/**
 * The verdict on the free space under `what`: fail below 100 MiB, warn below 1 GiB or below
 * `needed` (what a VACUUM or a backup of the database takes: about its size).
 */
export function roomVerdict(what: string, freeBytes: number, seen: string, needed = 0): Outcome {
  const free = `${bytesText(freeBytes)} free`;
  if (freeBytes < FAIL_BELOW_BYTES) {
    return fail(
      `${seen}; only ${free} on the file system of ${what}`,
      `free space there: below ${bytesText(FAIL_BELOW_BYTES)} the daemon stops writing`,
    );
  }
  if (freeBytes < Math.max(WARN_BELOW_BYTES, needed)) {
    const why =
      needed > WARN_BELOW_BYTES
        ? `a backup or VACUUM needs about ${bytesText(needed)}`
        : `a first pull of a large catalogue needs more`;
    return warn(`${seen}; ${free} on the file system of ${what}`, `free space there: ${why}`);
  }
  return pass(`${seen}; ${free}`);
}
