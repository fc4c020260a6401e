import { type ColumnsOf, plainQuery, query, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow, storedTime } from './store.js';
import { transaction } from './transaction.js';

/**
 * Where the next pull of one list starts. `filter` is the status filter of the list, '' for
 * lists without one. The watermark only moves forward, except by resetCheckpoint() and after a
 * backward step of the platform's clock (lowerCheckpoint()).
 */
export interface Checkpoint {
  resource: string;
  filter: string;
  watermark: string | undefined;
  updatedAt: string;
  lastRunAt: string | undefined;
  lastRunOk: boolean | undefined;
  lastError: string | undefined;
}

interface CheckpointRow {
  resource: string;
  filter: string;
  watermark: string | null;
  updated_at: string;
  last_run_at: string | null;
  last_run_ok: number | null;
  last_error: string | null;
}

const CHECKPOINT_COLUMNS: ColumnsOf<CheckpointRow> = {
  resource: 'text',
  filter: 'text',
  watermark: 'text?',
  updated_at: 'text',
  last_run_at: 'text?',
  last_run_ok: 'number?',
  last_error: 'text?',
};

const columns = Object.keys(CHECKPOINT_COLUMNS).join(', ');

export function getCheckpoint(store: Store, resource: string, filter = ''): Checkpoint | undefined {
  const row = query<{ resource: string; filter: string }, CheckpointRow>(
    store.db,
    `SELECT ${columns} FROM checkpoints WHERE resource = @resource AND filter = @filter`,
    CHECKPOINT_COLUMNS,
  ).get({ resource, filter });
  return row === undefined ? undefined : toCheckpoint(row);
}

export function listCheckpoints(store: Store): Checkpoint[] {
  return plainQuery<CheckpointRow>(
    store.db,
    `SELECT ${columns} FROM checkpoints ORDER BY resource, filter`,
    CHECKPOINT_COLUMNS,
  )
    .all()
    .map(toCheckpoint);
}

/**
 * Moves the watermark back by `byMs`, after the platform's clock stepped back by as much: the
 * one way besides resetCheckpoint() a watermark moves back (the Guarantees). Returns the
 * watermark now stored, undefined when the list has none yet.
 */
export function lowerCheckpoint(
  store: Store,
  resource: string,
  filter: string,
  byMs: number,
): string | undefined {
  const stored = getCheckpoint(store, resource, filter)?.watermark;
  if (stored === undefined) return undefined;
  const lowered = new Date(Math.max(0, Date.parse(stored) - byMs)).toISOString();
  statement<Record<string, string>>(
    store.db,
    `UPDATE checkpoints SET watermark = @lowered, updated_at = @now
     WHERE resource = @resource AND filter = @filter`,
  ).run({ resource, filter, lowered, now: storedNow(store) });
  return lowered;
}

/**
 * Moves the watermark to `watermark` when that is later than the stored one; an earlier one
 * (a pull that started before another finished, a clock that went back) leaves it. Returns the
 * watermark now stored.
 */
export function advanceCheckpoint(
  store: Store,
  resource: string,
  filter: string,
  watermark: Date | string,
): string {
  const row = query<Record<string, string>, { watermark: string }>(
    store.db,
    `INSERT INTO checkpoints (resource, filter, watermark, updated_at)
     VALUES (@resource, @filter, @watermark, @now)
     ON CONFLICT (resource, filter) DO UPDATE SET
       updated_at = CASE WHEN checkpoints.watermark IS NULL
         OR excluded.watermark > checkpoints.watermark
         THEN excluded.updated_at ELSE checkpoints.updated_at END,
       watermark = max(coalesce(checkpoints.watermark, ''), excluded.watermark)
     RETURNING watermark`,
    { watermark: 'text' },
  ).get({
    resource,
    filter,
    watermark: storedTime(watermark, `watermark of ${resource} ${filter}`.trim()),
    now: storedNow(store),
  });
  // RETURNING always yields the row just written.
  return row?.watermark ?? '';
}

/**
 * The operator's way to move a watermark back (or anywhere) or clear it (`to` absent: the next
 * pull starts from the beginning), for every status filter of the resource. `filters` creates
 * the checkpoints of those filters when they do not exist yet. Returns how many changed.
 */
export function resetCheckpoint(
  store: Store,
  resource: string,
  to?: Date | string,
  filters: readonly string[] = [],
): number {
  const watermark = to === undefined ? null : storedTime(to, `reset time of ${resource}`);
  const now = storedNow(store);
  return transaction(store, () => {
    let changed = statement<{ resource: string; watermark: string | null; now: string }>(
      store.db,
      `UPDATE checkpoints SET watermark = @watermark, updated_at = @now WHERE resource = @resource`,
    ).run({ resource, watermark, now }).changes;
    if (watermark === null) return changed;
    for (const filter of filters) {
      changed += statement<Record<string, string>>(
        store.db,
        `INSERT INTO checkpoints (resource, filter, watermark, updated_at)
         VALUES (@resource, @filter, @watermark, @now) ON CONFLICT (resource, filter) DO NOTHING`,
      ).run({ resource, filter, watermark, now }).changes;
    }
    return changed;
  });
}

function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    resource: row.resource,
    filter: row.filter,
    watermark: row.watermark ?? undefined,
    updatedAt: row.updated_at,
    lastRunAt: row.last_run_at ?? undefined,
    lastRunOk: row.last_run_ok === null ? undefined : row.last_run_ok === 1,
    lastError: row.last_error ?? undefined,
  };
}
