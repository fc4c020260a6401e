import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/index.js';
import type { ResourceName } from '../contract/index.js';
import type { DeliveryOutcome, ErpAdapter, OutboundRecord } from '../erp/adapter.js';
import { archivalFileName, archivalFolderOf } from '../erp/outbound/file/index.js';
import type { Handler } from '../queue/index.js';
import { previewOfJob, type NotedRequest } from '../pushback/index.js';
import type { Clock } from '../shared/clock.js';
import { copyStore, dryRunFolder, removeStaleDryRuns } from '../housekeeping/index.js';
import { openStore } from '../store/index.js';
import { createApp, type App, type AppDeps } from './app.js';
import { renderHandOver } from '../operations/handOverPreview.js';
import type { SyncReport } from './syncOnce.js';

/**
 * `sync --dry-run`: one pass that pulls and maps but writes nothing anyone else sees. It runs the
 * real pass (syncOnce) on a copy of the database, made with the backup's copy (SQLite's online
 * backup) in a private folder beside the database and removed after: the pulls, checkpoints,
 * hand-overs and jobs change only the copy. A rolled-back transaction cannot hold such a pass: it
 * commits in many small transactions between network reads (each pull batch with its
 * checkpoint, each job's outcome), so one open transaction would hold the database's write
 * lock for the whole pass and keep a running daemon from writing. The ERP adapter and every
 * platform write's handler are stand-ins that note what they would do: the hand-over rendered
 * as the adapter renders it (renderHandOver), the write as its own handler makes it against a
 * core that notes writes instead of sending them (previewOfJob). The inbox is not read (reading moves its files).
 */

/** A record version the pass would hand to the ERP, and where. */
export interface PlannedHandOver {
  resource: ResourceName;
  id: string;
  version: string;
  /** The news that the record was archived, not the version itself. */
  archival: boolean;
  /** The outbox file, or the request to the ERP (credentials masked). */
  target: string;
  /** Why the adapter would refuse it (it would go to the dead letters). */
  refused?: string;
}

/** A queued platform write (an acknowledgement, an ERP message) and the requests it would make. */
export interface PlannedPlatformWrite {
  kind: string;
  entityKey: string;
  requests: NotedRequest[];
  /** What only the run decides, or why nothing would be sent. */
  notes: string[];
}

export interface DryRunReport {
  /** The pass as it ran on the copy. */
  pass: SyncReport;
  handOvers: PlannedHandOver[];
  platformWrites: PlannedPlatformWrite[];
}

function targetOf(config: Config, item: OutboundRecord, rendered: RenderedTarget): string {
  if (item.archival !== undefined && config.erp.adapter === 'file') {
    return path.join(
      archivalFolderOf(config.erp.file.outbox, item.resource),
      archivalFileName(item.archival),
    );
  }
  if ('refused' in rendered) return 'refused';
  if (rendered.adapter === 'file') {
    return rendered.batch
      ? `${rendered.path} (a batch file; its number is given then)`
      : rendered.path;
  }
  const key = rendered.request.headers['idempotency-key'];
  return `${rendered.request.method} ${rendered.request.url} (Idempotency-Key ${key ?? '-'})`;
}

type RenderedTarget = Awaited<ReturnType<typeof renderHandOver>>;

/** Whether the REST adapter hands this item over at all (archival events only when asked). */
const sentAtAll = (config: Config, item: OutboundRecord): boolean =>
  item.archival === undefined ||
  config.erp.adapter === 'file' ||
  config.erp.rest?.archivalEvents === true;

/** The ERP adapter's stand-in: renders each record as the configured adapter would, keeps nothing. */
function notingAdapter(config: Config, noted: PlannedHandOver[]): ErpAdapter {
  async function handOver(item: OutboundRecord): Promise<DeliveryOutcome> {
    if (!sentAtAll(config, item)) return { status: 'delivered' };
    const rendered = await renderHandOver(config, item);
    // An archival event goes to a file of its own (the adapter's archival tree), never refused.
    const refused =
      'refused' in rendered && item.archival === undefined ? rendered.refused : undefined;
    noted.push({
      resource: item.resource,
      id: item.id,
      version: item.version,
      archival: item.archival !== undefined,
      target: targetOf(config, item, rendered),
      ...(refused === undefined ? {} : { refused }),
    });
    return refused === undefined
      ? { status: 'delivered' }
      : { status: 'rejected', reason: refused };
  }
  return {
    name: config.erp.adapter,
    batches: true,
    deliver: async (records) => {
      const outcomes: DeliveryOutcome[] = [];
      for (const item of records) outcomes.push(await handOver(item));
      return outcomes;
    },
    probe: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

/**
 * Every platform write's stand-in: runs the job's own handler against the noting core, reading
 * the platform itself (previewOfJob), notes what it would write, and counts the job done with
 * nothing kept of it.
 */
function notingWrite(noted: PlannedPlatformWrite[]): Handler {
  return async (job, { client, store, contract, clock }) => {
    const preview = await previewOfJob(job, { store, contract, clock, reads: client });
    noted.push({ kind: job.kind, entityKey: job.entityKey, ...preview });
  };
}

/** The database at `from` copied to `to` (none there yet: the pass starts from an empty one). */
async function copyDatabase(from: string, to: string, clock: Clock): Promise<void> {
  if (!existsSync(from)) return;
  const store = openStore({ path: from, clock });
  try {
    await copyStore(store, to);
  } finally {
    store.close();
  }
}

/**
 * Runs `pass` (the same pass `sync` runs) over the dry run's App, built from `config` on a copy
 * of its database with the noting stand-ins, and reports what it would have done. The copy and
 * its folder are removed whatever happens; one a killed dry run left is removed by the next
 * command that opens the database (src/housekeeping/dryRunCopies.ts).
 */
export async function dryRunOnce(
  config: Config,
  deps: Omit<AppDeps, 'dryRun'>,
  pass: (app: App) => Promise<SyncReport>,
): Promise<DryRunReport> {
  const database = path.resolve(config.storage.path);
  removeStaleDryRuns(database);
  const scratch = dryRunFolder(database);
  try {
    const copy = path.join(scratch, path.basename(database));
    await copyDatabase(database, copy, deps.clock);
    const handOvers: PlannedHandOver[] = [];
    const platformWrites: PlannedPlatformWrite[] = [];
    const dryRun = {
      adapter: notingAdapter(config, handOvers),
      platformWrite: notingWrite(platformWrites),
    };
    const app = await createApp(
      { ...config, storage: { ...config.storage, path: copy } },
      { ...deps, dryRun },
    );
    try {
      return { pass: await pass({ ...app, inbox: undefined }), handOvers, platformWrites };
    } finally {
      await app.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
