import { createHash } from 'node:crypto';
import {
  type ColumnsOf,
  entryOf,
  plainQuery,
  query,
  type RowOf,
  selectList,
  statement,
  values,
} from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

/** A record that failed validation: kept as received, with the reason, never handed on. */
export interface QuarantineEntry {
  id: number;
  resource: string;
  recordId: string | undefined;
  reason: string;
  json: string;
  runId: number | undefined;
  seenAt: string;
}

/** A quarantined record as `status` and `trace` name it: without the text it came as. */
export type QuarantineNote = Omit<QuarantineEntry, 'json'>;

/** A note's columns, selected under the entry's own names (RowOf). */
const NOTE_COLUMNS: ColumnsOf<RowOf<QuarantineNote>> = {
  id: 'number',
  resource: 'text',
  recordId: 'text?',
  reason: 'text',
  runId: 'number?',
  seenAt: 'text',
};

const NOTE = selectList(NOTE_COLUMNS);

/**
 * Keeps a rejected record. The same text arriving again (the overlap window repeats it) is kept
 * once; returns whether this one was new. `json` is the record's text as received.
 */
export function quarantine(
  store: Store,
  resource: string,
  recordId: string | undefined,
  reason: string,
  json: string,
  runId?: number,
): boolean {
  return (
    statement<Record<string, string | number | null>>(
      store.db,
      `INSERT INTO quarantine (resource, record_id, reason, json, json_sha256, run_id, seen_at)
       VALUES (@resource, @recordId, @reason, @json, @sha256, @runId, @now)
       ON CONFLICT (resource, json_sha256) DO NOTHING`,
    ).run({
      resource,
      recordId: recordId ?? null,
      reason,
      json,
      sha256: createHash('sha256').update(json).digest('hex'),
      runId: runId ?? null,
      now: storedNow(store),
    }).changes === 1
  );
}

/** Newest first; all resources when `resource` is absent. */
export function listQuarantine(
  store: Store,
  options: { resource?: string; limit?: number } = {},
): QuarantineEntry[] {
  return query<{ resource: string | null; limit: number }, RowOf<QuarantineEntry>>(
    store.db,
    `SELECT ${NOTE}, json FROM quarantine
     WHERE @resource IS NULL OR resource = @resource ORDER BY id DESC LIMIT @limit`,
    { ...NOTE_COLUMNS, json: 'text' },
  )
    .all({ resource: options.resource ?? null, limit: options.limit ?? -1 })
    .map((row) => entryOf<QuarantineEntry>(row));
}

/** How many records are in quarantine, for `status`. */
export function countQuarantined(store: Store): number {
  return (
    plainQuery<{ n: number }>(store.db, 'SELECT count(*) AS n FROM quarantine', {
      n: 'number',
    }).get()?.n ?? 0
  );
}

/**
 * The latest quarantined records (newest first), or those of one record (`of`, oldest first),
 * without their texts, which may be large.
 */
export function quarantineNotes(
  store: Store,
  options: { limit: number } | { of: { resource: string; id: string } },
): QuarantineNote[] {
  const rows =
    'limit' in options
      ? query<{ limit: number }, RowOf<QuarantineNote>>(
          store.db,
          `SELECT ${NOTE} FROM quarantine ORDER BY id DESC LIMIT @limit`,
          NOTE_COLUMNS,
        ).all({ limit: options.limit })
      : query<{ resource: string; id: string }, RowOf<QuarantineNote>>(
          store.db,
          `SELECT ${NOTE} FROM quarantine WHERE resource = @resource AND record_id = @id ORDER BY id`,
          NOTE_COLUMNS,
        ).all(options.of);
  return rows.map((row) => entryOf<QuarantineNote>(row));
}

/** The resources that hold a quarantined record with this `_id`. */
export function quarantinedResources(store: Store, id: string): string[] {
  return values<{ id: string }, string>(
    store.db,
    'SELECT DISTINCT resource FROM quarantine WHERE record_id = @id ORDER BY resource',
    'text',
  ).all({ id });
}

/** Each time a version of the record was set aside, with why: the trace's lines of it. */
export function quarantined(
  store: Store,
  of: { resource: string; id: string },
): { at: string; what: string }[] {
  return quarantineNotes(store, { of: { resource: of.resource, id: of.id } }).map((note) => {
    const run = note.runId === undefined ? '' : ` (run ${note.runId})`;
    return {
      at: note.seenAt,
      what: `quarantined a version${run}, not handed to the ERP: ${note.reason}`,
    };
  });
}
