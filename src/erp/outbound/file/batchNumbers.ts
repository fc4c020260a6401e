import { RESOURCE_NAMES } from '../../../contract/index.js';
import { namesIn, type OutboxFs } from './atomicWrite.js';
import { BATCH_DIGITS, safeSegment } from './names.js';
import { folderOf } from './placement.js';

/** `<resource>_<ten digits>.<ext>` (and its `.done` marker): a batch file's name. */
const batchName = (resource: string): RegExp =>
  new RegExp(`^${safeSegment(resource)}_(\\d{${BATCH_DIGITS}})\\.`);

/**
 * The highest batch number the outbox's file names carry, 0 when none: a restored backup of the
 * database remembers only the numbers given out before it, and the next batches must sort after
 * (and never meet) every file already there.
 */
export async function highestBatchIn(fs: OutboxFs, outbox: string): Promise<number> {
  let highest = 0;
  for (const resource of RESOURCE_NAMES) {
    const pattern = batchName(resource);
    for (const name of (await namesIn(fs, folderOf(outbox, resource))) ?? []) {
      const number = Number(pattern.exec(name)?.[1] ?? 0);
      if (number > highest) highest = number;
    }
  }
  return highest;
}
