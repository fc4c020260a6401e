import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RetentionConfig } from '../../config/retentionSchema.js';
import { ARCHIVE } from '../../erp/inbound/folders.js';
import type { Logger } from '../../log/index.js';
import { errorMessage, failureLevel } from '../../shared/errors.js';
import { autoVacuumOf } from '../../store/space.js';
import type { Store } from '../../store/store.js';
import { pruneBackups } from '../backup/backup.js';
import { removeStaleDryRuns } from '../dryRunCopies.js';
import { cutoffOf, pruneStore, type PruneReport } from './prune.js';
import { DAY_MS } from '../../shared/clock.js';

const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/;

export interface PruningDeps {
  store: Store;
  logger: Logger;
  retention: RetentionConfig;
  /** `erp.file.inbox` when the file adapter runs (its archive is pruned too). */
  inbox: string | undefined;
  /** Whether the daemon is stopping: pruning ends after the batch under way. */
  stopping: () => boolean;
}

/**
 * Removes the day folders `<inbox>/.archive/<kind>/<YYYY-MM-DD>/` older than `days`. A folder's
 * day is in the config's time zone, which may be up to 14 hours ahead of UTC: one day more is
 * kept, so no file goes before its time. Other folders and files are left alone.
 */
export async function pruneInboxArchive(inbox: string, cutoff: string): Promise<number> {
  const lastGone = new Date(new Date(cutoff).getTime() - DAY_MS).toISOString().slice(0, 10);
  const root = join(inbox, ARCHIVE);
  let removed = 0;
  for (const kind of await folders(root)) {
    for (const day of await folders(join(root, kind))) {
      if (!DAY_FOLDER.test(day) || day >= lastGone) continue;
      await rm(join(root, kind, day), { recursive: true, force: true });
      removed += 1;
    }
  }
  return removed;
}

async function folders(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * One pass of retention (`retention` in the config): the database in short batches, then the
 * inbox's archive and the backups the `backup` command made. Logged as one line of what went.
 */
export async function prunePass(deps: PruningDeps): Promise<PruneReport> {
  const { store, retention } = deps;
  const report = await pruneStore(store, retention, {
    batchSize: retention.batchSize,
    stopping: deps.stopping,
  });
  const inboxFolders =
    deps.inbox === undefined || report.stopped
      ? 0
      : await pruneInboxArchive(deps.inbox, cutoffOf(store, retention.inboxFiles));
  const backups = report.stopped
    ? []
    : pruneBackups(store, { days: retention.backups, kept: retention.backupsKept });
  // A dry run killed while the daemon runs: its copy goes at this pass, not at the next start.
  const dryRunCopies = report.stopped ? [] : removeStaleDryRuns(store.path);
  deps.logger.info(
    {
      removed: report.removed,
      freedPages: report.freedPages,
      inboxFolders,
      backups: backups.length,
      ...(dryRunCopies.length === 0 ? {} : { dryRunCopies }),
    },
    report.stopped
      ? 'retention: stopped for the shutdown; the next pass goes on'
      : 'retention: pruned',
  );
  warnWithoutAutoVacuum(deps);
  return report;
}

const warned = new WeakSet<Store>();

/**
 * A database made before incremental auto-vacuum reuses what pruning frees but never shrinks:
 * said once per process, with the one step that switches it (docs/readme/data-protection.md).
 */
function warnWithoutAutoVacuum({ store, logger }: PruningDeps): void {
  if (warned.has(store) || autoVacuumOf(store) === 'incremental') return;
  warned.add(store);
  logger.warn(
    `database ${store.path} was made without incremental auto-vacuum: pruned space is reused but the file does not shrink; stop the daemon and run \`sqlite3 ${store.path} 'PRAGMA auto_vacuum = INCREMENTAL; VACUUM;'\` once (it needs free disk space of about the file's size)`,
  );
}

/**
 * The daemon's scheduled retention (`retention.schedule`), none with `retention.enabled: false`:
 * entries for the pull's scheduler. A failed pass is logged; the next one tries again.
 */
export function retentionEntries(deps: PruningDeps) {
  if (!deps.retention.enabled) return [];
  const run = async (): Promise<void> => {
    try {
      await prunePass(deps);
    } catch (error) {
      deps.logger[failureLevel(error)]({ err: error }, `retention failed: ${errorMessage(error)}`);
    }
  };
  return [{ name: 'retention', cron: deps.retention.schedule, run }];
}
