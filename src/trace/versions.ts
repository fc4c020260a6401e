import {
  AGAIN,
  archivalKey,
  handOverKey,
  type RecordSubject,
  type Store,
  type VersionChanges,
} from '../store/index.js';
import { query } from '../store/statements.js';
import type { TraceEvent } from './event.js';
import type { HandOverNaming } from './handOvers.js';

/** The record's pulled versions and their hand-overs to the ERP, from the ledger. */

interface LedgerRow {
  version: string;
  _id: string;
  run_id: number | null;
  seen_at: string;
  delivered_at: string | null;
  ack_state: string;
  changed: string | null;
}

/**
 * A pulled version as seen, with what it changed as the pull noted it (VersionChanges); a
 * version no pull compared (older builds, our own write's answer, a redelivery) says nothing.
 */
function seenEvent(row: LedgerRow, what: string): TraceEvent {
  const run = row.run_id === null ? '' : ` (run ${row.run_id})`;
  const seen: TraceEvent = { at: row.seen_at, kind: 'version', what: `pulled ${what}${run}` };
  if (row.changed === null) return seen;
  const changes = JSON.parse(row.changed) as VersionChanges;
  if (changes === 'new') return { ...seen, what: `${seen.what}: new`, new: true };
  const named =
    changes.length === 0 ? 'no field changed but its stamps' : `changed ${changes.join(', ')}`;
  return { ...seen, what: `${seen.what}: ${named}`, changed: changes };
}

/**
 * The job that first handed this version (or the archival event) over, with the batch it went
 * in: the hand-over's own job, else an operator's redelivery (the keys of queue/deliveryJob.ts,
 * looked up by the key's unique index, the redeliveries as the range of keys after AGAIN: their
 * marks are times, ASCII, all below \uffff). Undefined when the queue holds none: the version
 * was our own write coming back, or its job is past retention.
 */
function handOverJobOf(
  store: Store,
  subject: RecordSubject,
  row: LedgerRow,
): { batch: number | undefined } | undefined {
  const version = handOverKey(subject.resource, subject.id, row.version);
  const archival = row._id !== subject.id;
  const key = archival ? archivalKey(version) : version;
  const again = `${version}${AGAIN}`;
  const job = query<Record<string, string>, { batch_id: number | null }>(
    store.db,
    `SELECT batch_id FROM queue WHERE idempotency_key = @key
       OR (@again <> '' AND idempotency_key > @again AND idempotency_key < @againEnd)
     ORDER BY id LIMIT 1`,
    { batch_id: 'number?' },
  ).get({ key, again: archival ? '' : again, againEnd: `${again}\uffff` });
  return job === undefined ? undefined : { batch: job.batch_id ?? undefined };
}

/** Each version as pulled, and when it was handed to the ERP, as what (`handOvers`). */
export function versionEvents(
  store: Store,
  subject: RecordSubject,
  handOvers: HandOverNaming,
): TraceEvent[] {
  const rows = query<{ resource: string; id: string; archived: string }, LedgerRow>(
    store.db,
    `SELECT version, _id, run_id, seen_at, delivered_at, ack_state, changed FROM ledger
     WHERE resource = @resource AND _id IN (@id, @archived) ORDER BY seq`,
    {
      version: 'text',
      _id: 'text',
      run_id: 'number?',
      seen_at: 'text',
      delivered_at: 'text?',
      ack_state: 'text',
      changed: 'text?',
    },
  ).all({ resource: subject.resource, id: subject.id, archived: `${subject.id}#archived` });
  return rows.flatMap((row) => {
    const archival = row._id !== subject.id;
    const what = archival ? 'the archival event' : `version ${row.version}`;
    const seen = seenEvent(row, what);
    if (row.delivered_at === null) return [seen];
    const ack = row.ack_state === 'none' ? '' : `; acknowledgement ${row.ack_state}`;
    const job = handOverJobOf(store, subject, row);
    const { resource, id } = subject;
    const handed =
      job !== undefined
        ? `handed ${what} to the ERP${handOvers({ resource, id, version: row.version, archival, batch: job.batch })}${ack}`
        : `${what} is our own write coming back: not handed to the ERP (or its hand-over's job is past retention)`;
    return [seen, { at: row.delivered_at, kind: 'handOver' as const, what: handed }];
  });
}
