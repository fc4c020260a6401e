/**
 * How the inbox claims a file of a kind folder: once it is complete (its `.done` marker there,
 * or the same size and mtime over two looks: completeness.ts), by rename into
 * `.processing/<kind>/`, so that the ERP and a second look never see it half-handled; and how it
 * finishes the files a crash or a failed hand-off left there.
 */
import { lstat, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../shared/errors.js';
import type { InboxFolder } from '../messages/kinds.js';
import { CompletenessTracker, type Completeness } from './completeness.js';
import { entriesOf, markerOf, MARKER, type DroppedFile } from './entries.js';
import { exists } from './folders.js';
import { handleClaimed, type HandleContext } from './handOff.js';
import type { FileResult } from './scanReport.js';
import { refuseUndecodable } from './setAside.js';

export interface Claims {
  /** Claims the file when it is complete and handles it; else says why it waits. */
  take(kind: InboxFolder, file: DroppedFile): Promise<FileResult>;
  /** Finishes the files left in `.processing/<kind>/`, before the kind's folder is read. */
  recover(kind: InboxFolder): Promise<FileResult[]>;
  /** Forgets what it remembers of files not offered to `take` since the last call. */
  forgetGone(): void;
}

/** A file that fails is a result, not the end of the scan: it is tried again next scan. */
async function safely(kind: InboxFolder, file: string, work: () => Promise<FileResult>) {
  try {
    return await work();
  } catch (error) {
    const reason = `could not handle the file: ${errorMessage(error)}; it is tried again next scan`;
    return { kind, file, status: 'failed', reason } satisfies FileResult;
  }
}

export function claims(ctx: HandleContext): Claims {
  const { layout, options } = ctx;
  const tracker = new CompletenessTracker(options.minFileAgeMs);
  let offered = new Set<string>();

  async function completeness(file: DroppedFile): Promise<Completeness> {
    if (options.doneMarker) {
      return (await exists(markerOf(file.path)))
        ? { ready: true }
        : { ready: false, reason: `no ${MARKER} marker yet` };
    }
    const { size, mtimeMs } = await lstat(file.path);
    return tracker.check(file.key, { size, mtimeMs }, ctx.clock.now().getTime());
  }

  const removeMarker = async (file: DroppedFile) => {
    // Gone already (the ERP or an earlier claim removed it): nothing is left to remove.
    if (options.doneMarker) await unlink(markerOf(file.path)).catch(() => undefined);
  };

  /**
   * A file whose name is not valid UTF-8 cannot be claimed like the others (no string path
   * reaches it): once as complete as any file must be, it goes to `.error/` unread, with a report.
   */
  async function take(kind: InboxFolder, file: DroppedFile): Promise<FileResult> {
    offered.add(file.key);
    const complete = await completeness(file);
    if (!complete.ready)
      return { kind, file: file.name, status: 'waiting', reason: complete.reason };
    const { bytes } = file;
    if (bytes !== undefined) {
      tracker.forget(file.key);
      const refused = await refuseUndecodable(ctx, kind, { ...file, bytes });
      await removeMarker(file);
      return refused;
    }
    await rename(file.path, join(layout.processing(kind), file.name));
    tracker.forget(file.key);
    await removeMarker(file);
    return handleClaimed(ctx, kind, file.name);
  }

  async function recover(kind: InboxFolder): Promise<FileResult[]> {
    const results: FileResult[] = [];
    for (const { name } of (await entriesOf(layout.processing(kind), true)).files) {
      results.push(await safely(kind, name, () => handleClaimed(ctx, kind, name)));
      // The marker of a file the crash claimed, which only a finished claim removes.
      const marker = join(layout.kind(kind), `${name}${MARKER}`);
      if (options.doneMarker && !(await exists(join(layout.kind(kind), name)))) {
        // Gone already: the claim before the crash removed it.
        await unlink(marker).catch(() => undefined);
      }
    }
    return results;
  }

  return {
    take: (kind, file) => safely(kind, file.name, () => take(kind, file)),
    recover,
    forgetGone() {
      tracker.keepOnly(offered);
      offered = new Set();
    },
  };
}
