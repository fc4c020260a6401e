/**
 * Storing a page of a list: in slices, each sorted out and committed in a transaction of its
 * own that holds the event loop about SLICE_MS (batchSizer), the loop free after each. So a
 * catalogue's page of 500 records never holds an order list's tick or an order's hand-over for
 * longer than a slice. The checkpoint moves only with the last slice of the run's last page (its
 * `end`): a crash mid-page leaves it where it was, the next pull lists the page again, and the
 * slices stored already are repeats the ledger recognises, neither stored nor handed over again.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkRecord, entitySchema, recordVersionOf } from '../contract/index.js';
import type { ListEntry, ListItem, SetAsideItem } from '../platform/index.js';
import type { BatchSizer } from '../shared/batchSizer.js';
import { withNotes } from './quarantined.js';
import type {
  BatchCounts,
  PulledRecord,
  PullStore,
  PullSummary,
  QuarantinedRecord,
  RunEnd,
} from './pullTypes.js';
import type { PullTarget } from './targets.js';

/**
 * How long storing one slice should hold the event loop, in ms: short beside the 2 s an order
 * may take from its creation to the ERP while a catalogue is pulled (bench backlog), long
 * enough that a slice's own statements (its look-ups, its commit) stay a small part of it.
 */
export const SLICE_MS = 10;

/** What stores a page: the pull's store and target, its slices' sizer and its commit. */
export interface PageStoring {
  store: PullStore;
  target: PullTarget;
  size: BatchSizer;
  /** Commits one sorted slice in one transaction, the run's end with it when given. */
  commit(slice: SortedBatch, end?: RunEnd): void;
}

/**
 * Stores `entries` (one page, in list order) in slices, the event loop free after each. With
 * `end`, the last slice's commit ends the run (`end` is made from that slice), and a page with
 * no entries still commits that end.
 */
export async function storePage(
  storing: PageStoring,
  entries: readonly ListEntry[],
  end?: (last: SortedBatch) => RunEnd,
): Promise<void> {
  const { store, target, size } = storing;
  let at = 0;
  do {
    const slice = entries.slice(at, at + size.limit());
    at += slice.length;
    const last = at >= entries.length;
    size.measure(() => {
      const sorted = sortOut(store, target, slice);
      storing.commit(sorted, last && end !== undefined ? end(sorted) : undefined);
    });
    if (last && end !== undefined) return;
    // A page stored at once would keep the loop to itself: the other lists, the queue's
    // hand-overs and the endpoint get their turn between two slices.
    await nextTurn();
  } while (at < entries.length);
}

export interface SortedBatch {
  records: PulledRecord[];
  bad: QuarantinedRecord[];
  repeats: number;
}

/**
 * A slice of listed records sorted into new versions, which are checked against the contract,
 * and repeats: a version the ledger holds with the same text goes no further (neither checked
 * nor stored), so a list seen again costs a hash per record and one look-up per slice.
 * A record that fails its check is quarantined (the ledger never holds it, so it is checked
 * every time it is listed).
 */
function sortOut(store: PullStore, target: PullTarget, slice: readonly ListEntry[]): SortedBatch {
  const listed = slice.filter((entry): entry is ListItem => !('setAside' in entry));
  const setAside = slice.filter((entry): entry is SetAsideItem => 'setAside' in entry);
  const schema = entitySchema(target.resource);
  const versions = listed.map((item) => {
    const version = recordVersionOf(target.resource, item.record);
    return version === undefined
      ? undefined
      : { ...version, json: item.text, sha256: store.sha256Of(item.text) };
  });
  const known = store.known(
    target,
    versions.filter((version) => version !== undefined),
  );
  const batch: SortedBatch = { records: [], bad: setAside.map(quarantinedAside), repeats: 0 };
  let at = 0;
  listed.forEach(({ record: raw, text }, index) => {
    if (versions[index] !== undefined && known[at++] === true) {
      batch.repeats += 1;
      return;
    }
    // The record as listed, not the check's copy of it: the same fields (the schemas let every
    // field pass as it is), the one its stored text says, and the copy is let go at once.
    const check = checkRecord(target.resource, schema, raw);
    if (check.ok) {
      const sha256 = versions[index]?.sha256;
      const pulled = { id: check.id, version: check.version, record: raw, json: text };
      batch.records.push(sha256 === undefined ? pulled : { ...pulled, sha256 });
    } else batch.bad.push({ id: check.id, reason: check.reason, raw });
  });
  return batch;
}

/** A record the list set aside unread: kept as it came when it was held, else a note of it. */
function quarantinedAside(item: SetAsideItem): QuarantinedRecord {
  const raw = { _id: item.id ?? null, notKept: item.reason };
  return {
    id: item.id,
    reason: item.reason,
    raw,
    ...(item.text === undefined ? {} : { text: item.text }),
  };
}

/** The summary with one committed slice counted in. */
export function counted(
  summary: PullSummary,
  batch: SortedBatch,
  counts: BatchCounts,
): PullSummary {
  const newly = withNotes(summary.newlyQuarantined, counts.quarantined);
  return {
    ...summary,
    fresh: summary.fresh + counts.fresh,
    repeats: summary.repeats + batch.repeats + counts.repeats,
    quarantined: summary.quarantined + batch.bad.length,
    ...(newly === undefined ? {} : { newlyQuarantined: newly }),
  };
}
