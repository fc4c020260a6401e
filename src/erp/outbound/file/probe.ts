import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { errorMessage } from '../../../shared/errors.js';
import { renameIntoPlace, type OutboxFs } from './atomicWrite.js';

/** What a probe writes: one block, so that a full disk fails it as it fails a hand-over. */
const PROBE_BYTES = 4096;

/**
 * Whether files can be put into `dir` the way the outbox puts them: a hidden temp file written
 * and synced, renamed (to a hidden name, which the ERP ignores as it ignores the outbox's temp
 * names), removed. Rejects naming the folder and what failed. An empty file would still be made
 * on a full disk (it needs no data block). The folder is not synced: nothing of the probe needs
 * to last, and /readyz runs it while the daemon writes.
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
