import {
  changedFields,
  goneReason,
  sameStampVersion,
  versionParts,
  type ResourceName,
} from '../contract/index.js';
import {
  advanceCheckpoint,
  forgottenThrough,
  getLedgerEntry,
  getMirror,
  getCheckpoint,
  lowerCheckpoint,
  isPullPaused,
  lastCount,
  isReducedRecord,
  keepVersionRecord,
  knownVersions,
  markDelivered,
  MAX_STORED_JSON_DEPTH,
  mirroredTextsOf,
  quarantine,
  recordRun,
  recordVersion,
  sha256Of,
  startRun,
  triedCreatesOf,
  type TriedCreate,
  transaction,
  upsertMirror,
  type MirrorRecord,
  type RunKind,
  type Store,
  type VersionChanges,
} from '../store/index.js';
import { queueDelivery } from '../queue/index.js';
import { archivalWatch, reportVanished } from './archivalWatch.js';
import { isOurOwnWrite, keptReduced, sameContent } from './ownEcho.js';
import type { PullRun, PullStore, PullSummary, PulledRecord } from './pullTypes.js';
import type { PullTarget } from './targets.js';

const parsedText = (json: string | undefined): unknown =>
  json === undefined ? undefined : JSON.parse(json);

/**
 * The version a pulled record is noted as in the ledger, or undefined for a repeat. A content
 * the ledger holds under another text (key order, spacing), measured against the text kept of
 * the stamp's first content, is a repeat; another content under a stamp already seen is a
 * version of its own (`sameStampVersion`), handed to the ERP like any other.
 */
function versionToRecord(
  store: Store,
  resource: ResourceName,
  runId: number,
  { id, version: stamp, record, json, sha256: listed }: PulledRecord,
  changed: VersionChanges | undefined,
): string | undefined {
  const sha256 = listed ?? sha256Of(json);
  if (recordVersion(store, resource, id, stamp, { runId, sha256, changed })) return stamp;
  const first = getLedgerEntry(store, resource, id, stamp);
  if (first?.sha256 === undefined || first.sha256 === sha256) return undefined;
  const mirrored = getMirror(store, resource, id);
  const earlier = mirrored?.version === stamp ? mirrored.record : parsedText(first.json);
  if (earlier !== undefined && sameContent(earlier, record)) return undefined;
  const version = sameStampVersion(stamp, sha256);
  return recordVersion(store, resource, id, version, { runId, sha256, changed })
    ? version
    : undefined;
}

/**
 * The mirror's records as a batch finds them, for telling what each version changed: read in
 * one statement for the whole batch (nothing for records first seen), each parsed when asked,
 * and kept up to date as the batch stores versions (a list may bring one record twice).
 */
interface MirrorBefore {
  get(id: string): MirrorRecord | undefined;
  stored(id: string, record: MirrorRecord): void;
}

function mirrorBefore(
  store: Store,
  resource: ResourceName,
  records: readonly PulledRecord[],
): MirrorBefore {
  const texts = mirroredTextsOf(
    store,
    resource,
    records.map((pulled) => pulled.id),
  );
  const stored = new Map<string, MirrorRecord>();
  return {
    get: (id) => stored.get(id) ?? (parsedText(texts.get(id)) as MirrorRecord | undefined),
    stored: (id, record) => void stored.set(id, record),
  };
}

/**
 * What a version changed against the record the mirror held before it: 'new' when it held
 * none; undefined when it keeps only a reduced record (retention, `forget`), which tells nothing.
 */
function changesOf(
  resource: ResourceName,
  before: MirrorRecord | undefined,
  record: Readonly<Record<string, unknown>>,
): VersionChanges | undefined {
  if (before === undefined) return 'new';
  return isReducedRecord(before) ? undefined : changedFields(resource, before, record);
}

/**
 * A version ending its record, listed again after retention let the record's keys go
 * (retention.endedKeys: a reconciliation, a checkpoint reset): its stamp is no newer than the
 * newest one let go and the mirror no longer knows the record. It was handed to the ERP when it
 * was new, so it is a repeat. Only ended records' keys go: a live record is never asked.
 */
function forgottenEnding(store: Store, resource: ResourceName, pulled: PulledRecord): boolean {
  if (goneReason(resource, pulled.record) === undefined) return false;
  const through = forgottenThrough(store, resource);
  if (through === undefined) return false;
  const stamp = Date.parse(versionParts(pulled.version).stamp);
  return stamp <= through && getMirror(store, resource, pulled.id) === undefined;
}

/**
 * A pulled version, in the pull's transaction: false for a repeat. A version seen for the
 * first time goes in the ledger, with the names of the fields it changed against the mirror's
 * record (`earlier`), and in the mirror, and its hand-over to the ERP is queued, all
 * or nothing with the checkpoint. The one place a new version becomes due for the ERP, and so
 * the place where our own write coming back (whether or not the platform left it out of this
 * pull) is recognised: the ERP sent it, so it is not handed to the ERP again. No ping-pong.
 * The record's text is stored once: in the mirror, or in the ledger when the mirror does not
 * take it as it is (it holds a newer version, or the record's identity is not its `_id`).
 */
function recordPulledVersion(
  store: Store,
  target: PullTarget,
  runId: number,
  pulled: PulledRecord,
  tried: TriedCreate[],
  earlier: MirrorBefore,
): boolean {
  const { resource } = target;
  if (forgottenEnding(store, resource, pulled)) return false;
  const { id, record, json } = pulled;
  const before = earlier.get(id);
  const changed = changesOf(resource, before, record);
  const version = versionToRecord(store, resource, runId, pulled, changed);
  if (version === undefined) return false;
  const echo = isOurOwnWrite(store, resource, { ...pulled, version }, tried, before);
  const archival = archivalWatch(store, resource, { ...pulled, version }, runId, before);
  // The mirror names every record by `_id`; one identified otherwise gets it added there.
  const asPulled = record['_id'] === id;
  const whole = asPulled ? (record as MirrorRecord) : { ...record, _id: id };
  const kept = keptReduced(echo, before, whole);
  const body = kept?.record ?? whole;
  const text = kept?.json ?? (asPulled ? json : undefined);
  const mirrored = upsertMirror(store, resource, body, version, text);
  if (mirrored) earlier.stored(id, body);
  if (!mirrored || !asPulled) keepVersionRecord(store, resource, id, version, text ?? json);
  if (echo) markDelivered(store, resource, id, version);
  else queueDelivery(store, resource, id, version);
  // Our own write archiving it came from the ERP: it knows (no ping-pong).
  if (!echo) archival(mirrored);
  return true;
}

function runKind(run: PullRun): RunKind {
  return run.mode === 'incremental' ? 'pull' : 'reconcile';
}

/** The run's row: written by the run's first commit, inside that commit's transaction. */
function runRow(store: Store, run: PullRun): number {
  const { resource, filter } = run.target;
  return run.id ?? startRun(store, resource, filter, runKind(run), run.startedAt, run.whole);
}

function finishRun(store: Store, runId: number, summary: PullSummary): void {
  recordRun(store, runId, {
    fetched: summary.fetched,
    new: summary.fresh,
    repeats: summary.repeats,
    quarantined: summary.quarantined,
    ok: summary.ok,
    ...(summary.error === undefined ? {} : { error: summary.error }),
    ...(summary.watermark === undefined ? {} : { watermark: summary.watermark }),
  });
}

/**
 * The puller's view of the SQLite store. `commitOutcomes` commits the queue's outcomes gathered
 * so far (the worker's `commitOutcomes`), so that our writes the platform has answered are ours
 * before their echo can come in; a pull without a worker beside it passes one that does nothing.
 * `noteWritesUnderWay`, in a batch's transaction before its versions are recorded, notes the
 * changes of our writes to these records still waiting for their answer, so that the version one
 * of them made is ours too.
 */
export function sqlitePullStore(
  store: Store,
  commitOutcomes: () => void,
  noteWritesUnderWay: (resource: ResourceName, ids: readonly string[]) => void = () => undefined,
): PullStore {
  // Kept for the process: after a restart the first pull learns it again, with one 400.
  const timeParamRefused = new Set<string>();
  const keyOf = (target: PullTarget): string => `${target.resource}?${target.filter}`;
  // How much of the platform clock's backward steps each target's watermark has followed.
  const followed = new Map<string, number>();
  return {
    followClockSteps(target, steppedBackMs) {
      const behind = steppedBackMs - (followed.get(keyOf(target)) ?? 0);
      followed.set(keyOf(target), steppedBackMs);
      if (behind <= 0) return undefined;
      return lowerCheckpoint(store, target.resource, target.filter, behind);
    },
    followStepAhead(target, platformNow) {
      const checkpoint = getCheckpoint(store, target.resource, target.filter);
      if (checkpoint?.watermark === undefined) return undefined;
      const aheadMs = Date.parse(checkpoint.watermark) - platformNow.getTime();
      if (!(aheadMs > 0)) return undefined;
      const sinceStoredMs = Math.max(
        0,
        store.clock.now().getTime() - Date.parse(checkpoint.updatedAt),
      );
      return lowerCheckpoint(store, target.resource, target.filter, aheadMs + sinceStoredMs);
    },
    reportVanished(target, listed) {
      return transaction(store, () => reportVanished(store, target.resource, listed));
    },
    maxJsonDepth: MAX_STORED_JSON_DEPTH,
    paused: (resource) => isPullPaused(store, resource),
    timeParamRefused: (target) => timeParamRefused.has(keyOf(target)),
    refuseTimeParam: (target) => void timeParamRefused.add(keyOf(target)),
    watermark: (target) => getCheckpoint(store, target.resource, target.filter)?.watermark,
    lastCount: (run) =>
      lastCount(store, {
        resource: run.target.resource,
        filter: run.target.filter,
        kind: runKind(run),
        whole: run.whole === true,
      }),
    known: (target, versions) =>
      knownVersions(
        store,
        target.resource,
        versions.map(({ id, version, sha256 }) => ({ id, version, sha256 })),
      ),
    sha256Of,
    commitBatch(run, records, bad, end) {
      const { target } = run;
      // Our writes the platform has answered are ours before their echo can come in here.
      commitOutcomes();
      return transaction(
        store,
        () => {
          const runId = runRow(store, run);
          noteWritesUnderWay(
            target.resource,
            records.map((pulled) => pulled.id),
          );
          let fresh = 0;
          const tried = triedCreatesOf(store, target.resource);
          const earlier = mirrorBefore(store, target.resource, records);
          for (const pulled of records) {
            if (recordPulledVersion(store, target, runId, pulled, tried, earlier)) fresh += 1;
          }
          const quarantined = bad.filter((entry) => {
            const raw = entry.text ?? JSON.stringify(entry.raw) ?? 'null';
            return quarantine(store, target.resource, entry.id, entry.reason, raw, runId);
          });
          const counts = {
            fresh,
            repeats: records.length - fresh,
            quarantined: quarantined.map(({ id, reason }) => ({ id, reason })),
          };
          if (end !== undefined) {
            if (end.advanceTo !== undefined)
              advanceCheckpoint(store, target.resource, target.filter, end.advanceTo);
            finishRun(store, runId, end.outcome(counts));
          }
          return { ...counts, runId };
        },
        end === undefined ? 'withTheNextSync' : 'synced',
      );
    },
    failRun(run, summary) {
      transaction(store, () => finishRun(store, runRow(store, run), summary));
    },
  };
}
