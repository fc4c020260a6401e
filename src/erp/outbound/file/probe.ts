import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { errorMessage } from '../../../shared/errors.js';
import { renameIntoPlace, type OutboxFs } from './atomicWrite.js';

/** What a probe writes: one block, so that a full disk fails it as it fails a hand-over. */
const PROBE_BYTES = 4096;

/**
 * Whether files can be put into `dir` the way the outbox puts them: a hidden file written,
 * synced, renamed, removed (a block of data: an empty file is made even on a full disk). The
 * folder is not synced: nothing of the probe needs to last. Rejects naming the folder and why.
 */
export async function folderWritable(fs: OutboxFs, dir: string, prefix: string): Promise<void> {
  const name = `.${prefix}-${randomBytes(6).toString('hex')}`;
  try {
    await renameIntoPlace(fs, dir, name, Buffer.alloc(PROBE_BYTES), 0o600, new Set());
    await fs.unlink(join(dir, name));
  } catch (error) {
    throw new Error(`${dir} is not writable: ${errorMessage(error)}`, { cause: error });
  }
}
