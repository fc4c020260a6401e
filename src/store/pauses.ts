import { operatorActionsOn, type RecordedAction } from './operatorActions.js';
import { KIND_FILTER_SQL, kindParams, type KindFilter } from './queueRows.js';
import { type ColumnsOf, plainQuery, query, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

/**
 * What an operator can pause (`homecare-sync pause`): `pull`, the scheduled pulls of a resource;
 * `push`, the queue's writes to the platform of a job kind (acknowledgements, push-backs).
 */
export type PauseDirection = 'pull' | 'push';

/** The target that stands for the whole direction: every resource, every kind. */
export const EVERY_TARGET = '*';

/** A pause in force: since when the direction's target is paused. */
export interface Pause {
  direction: PauseDirection;
  /** A resource (pull), a job kind (push), or EVERY_TARGET. */
  target: string;
  since: string;
}

interface PauseRow {
  direction: PauseDirection;
  target: string;
  paused_at: string;
}

const PAUSE_COLUMNS: ColumnsOf<PauseRow> = { direction: 'text', target: 'text', paused_at: 'text' };

/** How pauses are named in the operator's audit: `pull:patient`, `push:orderStatus`, `push:*`. */
export const pauseSubject = (direction: PauseDirection, target: string): string =>
  `${direction}:${target}`;

/**
 * Pauses `target` of `direction`, in the caller's transaction. Answers whether it changed
 * anything (false when it was paused already) and since when it is paused.
 */
export function pause(
  store: Store,
  direction: PauseDirection,
  target: string,
): { changed: boolean; since: string } {
  const inForce = pauseOf(store, direction, target);
  if (inForce !== undefined) return { changed: false, since: inForce.since };
  const since = storedNow(store);
  statement<Record<string, string>>(
    store.db,
    `INSERT INTO pauses (direction, target, paused_at, resumed_at)
     VALUES (@direction, @target, @since, NULL)
     ON CONFLICT (direction, target) DO UPDATE SET paused_at = @since, resumed_at = NULL`,
  ).run({ direction, target, since });
  return { changed: true, since };
}

/** Lifts the pause of `target`, in the caller's transaction; false when it was not paused. */
export function resume(store: Store, direction: PauseDirection, target: string): boolean {
  const { changes } = statement<Record<string, string>>(
    store.db,
    `UPDATE pauses SET resumed_at = @now
     WHERE direction = @direction AND target = @target AND resumed_at IS NULL`,
  ).run({ direction, target, now: storedNow(store) });
  return changes > 0;
}

function pauseOf(store: Store, direction: PauseDirection, target: string): Pause | undefined {
  const row = query<Record<string, string>, PauseRow>(
    store.db,
    `SELECT direction, target, paused_at FROM pauses
     WHERE direction = @direction AND target = @target AND resumed_at IS NULL`,
    PAUSE_COLUMNS,
  ).get({ direction, target });
  return row === undefined ? undefined : toPause(row);
}

const toPause = (row: PauseRow): Pause => ({
  direction: row.direction,
  target: row.target,
  since: row.paused_at,
});

/** Every pause in force, pulls first, the whole direction before its targets. */
export function pausesInForce(store: Store): Pause[] {
  return plainQuery<PauseRow>(
    store.db,
    `SELECT direction, target, paused_at FROM pauses WHERE resumed_at IS NULL
     ORDER BY direction, target <> '${EVERY_TARGET}', target`,
    PAUSE_COLUMNS,
  )
    .all()
    .map(toPause);
}

/** Whether the scheduled pulls of `resource` are paused, by themselves or with every resource. */
export function isPullPaused(store: Store, resource: string): boolean {
  return (
    query<{ resource: string }, { one: number }>(
      store.db,
      `SELECT 1 AS one FROM pauses WHERE direction = 'pull' AND resumed_at IS NULL
         AND target IN (@resource, '${EVERY_TARGET}')`,
      { one: 'number' },
    ).get({ resource }) !== undefined
  );
}

/** The platform writes held back: every one, or those of the kinds named. */
export type HeldWrites = { every: true } | { every: false; kinds: string[] };

/** What the push pauses in force hold back. */
export function heldWrites(store: Store): HeldWrites {
  const targets = pausesInForce(store)
    .filter((p) => p.direction === 'push')
    .map((p) => p.target);
  return targets.includes(EVERY_TARGET) ? { every: true } : { every: false, kinds: targets };
}

/** Pending jobs of `kinds` that a push pause holds back. */
export function countHeldJobs(store: Store, kinds: KindFilter): number {
  const held = heldWrites(store);
  if (!held.every && held.kinds.length === 0) return 0;
  const params = {
    ...kindParams(kinds),
    every: held.every ? 1 : 0,
    held: JSON.stringify(held.every ? [] : held.kinds),
  };
  return (
    query<typeof params, { n: number }>(
      store.db,
      `SELECT count(*) AS n FROM queue WHERE state = 'pending' AND ${KIND_FILTER_SQL}
         AND (@every = 1 OR kind IN (SELECT value FROM json_each(@held)))`,
      { n: 'number' },
    ).get(params)?.n ?? 0
  );
}

/**
 * When the pulls of each of `resources` were last resumed (by themselves or with every
 * resource), for those resumed at all: readiness counts a resource's freshness from then.
 */
export function pullsResumedAt(store: Store, resources: readonly string[]): Record<string, string> {
  const select = query<{ resource: string }, { at: string | null }>(
    store.db,
    `SELECT max(resumed_at) AS at FROM pauses
     WHERE direction = 'pull' AND target IN (@resource, '${EVERY_TARGET}')`,
    { at: 'text?' },
  );
  return Object.fromEntries(
    resources.flatMap((resource) => {
      const at = select.get({ resource })?.at ?? null;
      return at === null ? [] : [[resource, at]];
    }),
  );
}

/**
 * The pauses and resumes of `subjects` (pauseSubject) that were in force between `from` and
 * `to` (open: until now): those done in that time and, per subject, a pause done before it
 * that still held when it began. For a job's or a record's timeline.
 */
export function pauseActionsDuring(
  store: Store,
  subjects: readonly string[],
  from: string,
  to?: string,
): RecordedAction[] {
  return subjects
    .flatMap((subject) => {
      const actions = operatorActionsOn(store, [subject]);
      const before = actions.filter((done) => done.at < from).at(-1);
      const during = actions.filter(
        (done) => done.at >= from && (to === undefined || done.at <= to),
      );
      return before?.action === 'pause' ? [before, ...during] : during;
    })
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** A job as far as the pauses that held it matter: its kind and its life. */
export interface PausableJob {
  kind: string;
  createdAt: string;
  /** When it ended (done, dead, superseded); undefined while it is open. */
  endedAt: string | undefined;
}

/** What pauses could have held back: a record's pulls since it was first seen, and jobs. */
export interface PausedWork {
  /** The record's resource and when it was first seen; its pulls' pauses count from then. */
  pulls?: { resource: string; from: string };
  jobs: readonly PausableJob[];
  /** The job kinds a push pause holds (the platform writes, not the hand-overs). */
  holds: (kind: string) => boolean;
}

/**
 * The pauses and resumes that mattered to `work`, oldest first: those of the resource's pulls
 * since it was first seen, and those of each job's kind while the job was open.
 */
export function pauseActionsOf(store: Store, work: PausedWork): RecordedAction[] {
  const { pulls } = work;
  const ofPulls =
    pulls === undefined
      ? []
      : pauseActionsDuring(
          store,
          [pauseSubject('pull', EVERY_TARGET), pauseSubject('pull', pulls.resource)],
          pulls.from,
        );
  const ofWrites = work.jobs
    .filter((job) => work.holds(job.kind))
    .flatMap((job) =>
      pauseActionsDuring(
        store,
        [pauseSubject('push', EVERY_TARGET), pauseSubject('push', job.kind)],
        job.createdAt,
        job.endedAt,
      ),
    );
  // Jobs of one kind share their pauses: each is told once.
  const seen = new Set<string>();
  return [...ofPulls, ...ofWrites]
    .filter((done) => {
      const key = `${done.subject} ${done.action} ${done.at}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}
