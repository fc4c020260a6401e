import { createHash } from 'node:crypto';
import { type ColumnsOf, plainQuery, query, statement } from './statements.js';
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

interface QuarantineRow {
  id: number;
  resource: string;
  record_id: string | null;
  reason: string;
  json: string;
  run_id: number | null;
  seen_at: string;
}

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
  return query<{ resource: string | null; limit: number }, QuarantineRow>(
    store.db,
    `SELECT id, resource, record_id, reason, json, run_id, seen_at FROM quarantine
     WHERE @resource IS NULL OR resource = @resource ORDER BY id DESC LIMIT @limit`,
    {
      id: 'number',
      resource: 'text',
      record_id: 'text?',
      reason: 'text',
      json: 'text',
      run_id: 'number?',
      seen_at: 'text',
    },
  )
    .all({ resource: options.resource ?? null, limit: options.limit ?? -1 })
    .map((row) => ({
      id: row.id,
      resource: row.resource,
      recordId: row.record_id ?? undefined,
      reason: row.reason,
      json: row.json,
      runId: row.run_id ?? undefined,
      seenAt: row.seen_at,
    }));
}

/** How many records are in quarantine, for `status`. */
export function countQuarantined(store: Store): number {
  return (
    plainQuery<{ n: number }>(store.db, 'SELECT count(*) AS n FROM quarantine', {
      n: 'number',
    }).get()?.n ?? 0
  );
}

/** A quarantined record as `status` and `trace` name it: without the text it came as. */
export type QuarantineNote = Omit<QuarantineEntry, 'json'>;

type NoteRow = Omit<QuarantineRow, 'json'>;

const NOTE_COLUMNS: ColumnsOf<NoteRow> = {
  resource: 'text',
  id: 'number',
  record_id: 'text?',
  reason: 'text',
  run_id: 'number?',
  seen_at: 'text',
};

function noteOf(row: NoteRow): QuarantineNote {
  return {
    id: row.id,
    resource: row.resource,
    recordId: row.record_id ?? undefined,
    reason: row.reason,
    runId: row.run_id ?? undefined,
    seenAt: row.seen_at,
  };
}

/**
 * The latest quarantined records (newest first), or those of one record (`of`, oldest first),
 * without their texts, which may be large.
 */
export function quarantineNotes(
  store: Store,
  options: { limit: number } | { of: { resource: string; id: string } },
): QuarantineNote[] {
  const columns = 'id, resource, record_id, reason, run_id, seen_at';
  if ('limit' in options) {
    return query<{ limit: number }, NoteRow>(
      store.db,
      `SELECT ${columns} FROM quarantine ORDER BY id DESC LIMIT @limit`,
      NOTE_COLUMNS,
    )
      .all({ limit: options.limit })
      .map(noteOf);
  }
  return query<{ resource: string; id: string }, NoteRow>(
    store.db,
    `SELECT ${columns} FROM quarantine WHERE resource = @resource AND record_id = @id ORDER BY id`,
    NOTE_COLUMNS,
  )
    .all(options.of)
    .map(noteOf);
}

/** The resources that hold a quarantined record with this `_id`. */
export function quarantinedResources(store: Store, id: string): string[] {
  return query<{ id: string }, { resource: string }>(
    store.db,
    'SELECT DISTINCT resource FROM quarantine WHERE record_id = @id ORDER BY resource',
    { resource: 'text' },
  )
    .all({ id })
    .map((row) => row.resource);
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
