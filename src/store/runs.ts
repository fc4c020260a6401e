import { type ColumnsOf, plainQuery, query, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';
import { transaction } from './transaction.js';

export type RunKind = 'pull' | 'reconcile';

/** What one pull of one list did, for `status` and for the ledger's `run_id`. */
export interface RunOutcome {
  fetched: number;
  new: number;
  repeats: number;
  quarantined: number;
  ok: boolean;
  error?: string;
  /** The watermark the run left behind, when it moved one. */
  watermark?: string;
}

export interface Run extends Partial<RunOutcome> {
  id: number;
  resource: string;
  filter: string;
  kind: RunKind;
  startedAt: string;
  finishedAt: string | undefined;
}

interface RunRow {
  id: number;
  resource: string;
  filter: string;
  kind: RunKind;
  started_at: string;
  finished_at: string | null;
  fetched: number;
  new: number;
  repeats: number;
  quarantined: number;
  ok: number | null;
  error: string | null;
  watermark: string | null;
}

const RUN_COLUMNS: ColumnsOf<RunRow> = {
  id: 'number',
  resource: 'text',
  filter: 'text',
  kind: 'text',
  started_at: 'text',
  finished_at: 'text?',
  fetched: 'number',
  new: 'number',
  repeats: 'number',
  quarantined: 'number',
  ok: 'number?',
  error: 'text?',
  watermark: 'text?',
};

/**
 * Opens a run; its id goes into the ledger rows and quarantine entries it writes. `startedAt`
 * is when the pull began, which may be before its row is written (a stored date-time). `whole`:
 * the run reads its list whole (see lastCount).
 */
export function startRun(
  store: Store,
  resource: string,
  filter = '',
  kind: RunKind = 'pull',
  startedAt = storedNow(store),
  whole = false,
): number {
  return Number(
    statement<Record<string, string | number>>(
      store.db,
      `INSERT INTO runs (resource, filter, kind, started_at, whole)
       VALUES (@resource, @filter, @kind, @now, @whole)`,
    ).run({ resource, filter, kind, now: startedAt, whole: whole ? 1 : 0 }).lastInsertRowid,
  );
}

/**
 * How many records the last successful run of this list, kind and wholeness fetched: a list
 * carries no total, so a long run estimates its end from this. Found by walking the list's runs
 * back from the newest (runs_latest); runs pruned by retention are gone, and then so is the
 * estimate.
 */
export function lastCount(
  store: Store,
  run: { resource: string; filter: string; kind: RunKind; whole: boolean },
): number | undefined {
  return query<Record<string, string | number>, { fetched: number }>(
    store.db,
    `SELECT fetched FROM runs
     WHERE resource = @resource AND filter = @filter AND kind = @kind AND whole = @whole
       AND ok = 1
     ORDER BY id DESC LIMIT 1`,
    { fetched: 'number' },
  ).get({ ...run, whole: run.whole ? 1 : 0 })?.fetched;
}

/**
 * Closes a run with its outcome and notes it on the list's checkpoint (last run, ok, error)
 * without touching the watermark.
 */
export function recordRun(store: Store, runId: number, outcome: RunOutcome): void {
  const now = storedNow(store);
  const values = {
    id: runId,
    now,
    fetched: outcome.fetched,
    new: outcome.new,
    repeats: outcome.repeats,
    quarantined: outcome.quarantined,
    ok: outcome.ok ? 1 : 0,
    error: outcome.error ?? null,
    watermark: outcome.watermark ?? null,
  };
  transaction(store, () => {
    const run = query<typeof values, { resource: string; filter: string }>(
      store.db,
      `UPDATE runs SET finished_at = @now, fetched = @fetched, new = @new, repeats = @repeats,
         quarantined = @quarantined, ok = @ok, error = @error, watermark = @watermark
       WHERE id = @id RETURNING resource, filter`,
      { resource: 'text', filter: 'text' },
    ).get(values);
    if (run === undefined)
      throw new RangeError(`run ${runId} does not exist; start it with startRun()`);
    statement<Record<string, string | number | null>>(
      store.db,
      `INSERT INTO checkpoints (resource, filter, updated_at, last_run_at, last_run_ok, last_error)
       VALUES (@resource, @filter, @now, @now, @ok, @error)
       ON CONFLICT (resource, filter) DO UPDATE SET last_run_at = excluded.last_run_at,
         last_run_ok = excluded.last_run_ok, last_error = excluded.last_error`,
    ).run({ resource: run.resource, filter: run.filter, now, ok: values.ok, error: values.error });
  });
}

export function getRun(store: Store, runId: number): Run | undefined {
  const row = query<{ id: number }, RunRow>(
    store.db,
    'SELECT * FROM runs WHERE id = @id',
    RUN_COLUMNS,
  ).get({
    id: runId,
  });
  return row === undefined ? undefined : toRun(row);
}

/** The latest run of every list, for `status`. */
export function latestRuns(store: Store): Run[] {
  return plainQuery<RunRow>(
    store.db,
    `SELECT * FROM runs WHERE id IN (SELECT max(id) FROM runs GROUP BY resource, filter)
     ORDER BY resource, filter`,
    RUN_COLUMNS,
  )
    .all()
    .map(toRun);
}

/** The latest run of each list of one resource: its index steps only, however many runs there are. */
export function latestRunsOf(store: Store, resource: string): Run[] {
  return query<{ resource: string }, RunRow>(
    store.db,
    `SELECT * FROM runs WHERE id IN (
       SELECT max(id) FROM runs INDEXED BY runs_latest WHERE resource = @resource GROUP BY filter)
     ORDER BY filter`,
    RUN_COLUMNS,
  )
    .all({ resource })
    .map(toRun);
}

function toRun(row: RunRow): Run {
  const run: Run = {
    id: row.id,
    resource: row.resource,
    filter: row.filter,
    kind: row.kind,
    startedAt: row.started_at,
    finishedAt: row.finished_at ?? undefined,
  };
  if (row.finished_at === null) return run;
  return {
    ...run,
    fetched: row.fetched,
    new: row.new,
    repeats: row.repeats,
    quarantined: row.quarantined,
    ok: row.ok === 1,
    ...(row.error === null ? {} : { error: row.error }),
    ...(row.watermark === null ? {} : { watermark: row.watermark }),
  };
}

/**
 * When each of `resources` last had a successful pull (any of its filters), for readiness: one
 * index look-up each (runs_succeeded), however many runs the table holds.
 */
export function lastSuccessfulPulls(
  store: Store,
  resources: readonly string[],
): Record<string, string> {
  const last = query<{ resource: string }, { at: string | null }>(
    store.db,
    `SELECT max(finished_at) AS at FROM runs
     WHERE resource = @resource AND ok = 1 AND kind = 'pull'`,
    { at: 'text?' },
  );
  return Object.fromEntries(
    resources.flatMap((resource) => {
      const at = last.get({ resource })?.at ?? null;
      return at === null ? [] : [[resource, at]];
    }),
  );
}
