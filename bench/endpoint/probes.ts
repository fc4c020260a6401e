/**
 * What a client of the endpoint sees while it is under load: /healthz asked every PROBE_GAP_MS
 * on a fresh connection each (as a container's liveness probe does), and a few valid messages
 * posted with the token, as the ERP would.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { millis, percentile } from '../support/format.js';
import { validOrderStatus } from './bodies.js';
import { answered, outcomeLabel, send, type Outcome } from './client.js';

export const PROBE_GAP_MS = 50;
/** A liveness probe that waits longer than this counts as failed (the target). */
export const ANSWER_BOUND_MS = 1_000;
/** A valid POST is given longer than the target, so that a late answer shows its latency. */
export const POST_TIMEOUT_MS = 3_000;

/**
 * GET /healthz every PROBE_GAP_MS for `windowMs`, not waiting for the last answer, so that a
 * stalled endpoint shows as many unanswered probes rather than as few slow ones.
 */
export async function probeHealthz(port: number, windowMs: number): Promise<Outcome[]> {
  const probes: Promise<Outcome>[] = [];
  const count = Math.max(1, Math.floor(windowMs / PROBE_GAP_MS));
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    probes.push(send({ port, method: 'GET', path: '/healthz', timeoutMs: ANSWER_BOUND_MS }));
    // Against the schedule, not the last wake-up, so that a late timer does not stretch it.
    await sleep(Math.max(0, started + (i + 1) * PROBE_GAP_MS - performance.now()));
  }
  return Promise.all(probes);
}

/**
 * Valid POST /erp/orderStatus with the token, one at each of `offsetsMs` (from now), whether the
 * one before was answered or not: a slow answer must not push the later tries out of the window.
 */
export async function postValid(
  port: number,
  token: string,
  offsetsMs: readonly number[],
): Promise<Outcome[]> {
  const post = async (offset: number, i: number): Promise<Outcome> => {
    await sleep(offset);
    return send({
      port,
      method: 'POST',
      path: '/erp/orderStatus',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        // A key of its own per try, so that no try is answered as a repeat of another.
        'idempotency-key': `bench-endpoint-${process.pid}-${Date.now()}-${i}`,
      },
      body: validOrderStatus(i),
      timeoutMs: POST_TIMEOUT_MS,
    });
  };
  return Promise.all(offsetsMs.map(post));
}

/** "400 ×12, ECONNRESET ×3": the outcomes counted by status or failure, most first. */
export function tally(outcomes: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) {
    const label = outcomeLabel(outcome);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  if (counts.size === 0) return 'none';
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${label} ×${n}`)
    .join(', ');
}

export interface ProbeFigures {
  probes: number;
  p50: number;
  p95: number;
  max: number;
  /** Probes not answered with 200 within ANSWER_BOUND_MS. */
  unanswered: number;
}

const inTime = (outcome: Outcome): boolean =>
  answered(outcome) && outcome.status === 200 && outcome.ms <= ANSWER_BOUND_MS;

export function probeFigures(outcomes: readonly Outcome[]): ProbeFigures {
  const times = outcomes.filter(inTime).map((outcome) => outcome.ms);
  return {
    probes: outcomes.length,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    max: times.length === 0 ? Number.NaN : Math.max(...times),
    unanswered: outcomes.length - times.length,
  };
}

const shown = (ms: number): string => (Number.isNaN(ms) ? 'n/a' : millis(ms));

/** The /healthz line of one phase; the failures are named, a timeout is not a reset. */
export function probeLine(outcomes: readonly Outcome[]): string {
  const figures = probeFigures(outcomes);
  const failed = outcomes.filter((outcome) => !inTime(outcome));
  const why = failed.length === 0 ? '' : ` (${tally(failed)})`;
  return (
    `/healthz ${figures.probes} probes every ${PROBE_GAP_MS} ms: p50 ${shown(figures.p50)}, ` +
    `p95 ${shown(figures.p95)}, max ${shown(figures.max)}, ` +
    `no answer within ${ANSWER_BOUND_MS / 1000} s: ${figures.unanswered}${why}`
  );
}

/** "202 in 3.1 ms, timeout after 3000 ms": each valid POST as it went. */
export function postLine(outcomes: readonly Outcome[]): string {
  const each = outcomes.map((outcome) =>
    answered(outcome)
      ? `${outcome.status} in ${millis(outcome.ms)}`
      : `${outcome.failure} after ${millis(outcome.ms)}`,
  );
  const inBound = outcomes.filter(
    (outcome) => answered(outcome) && outcome.status === 202 && outcome.ms <= ANSWER_BOUND_MS,
  ).length;
  return `valid POST /erp/orderStatus with the token: ${each.join(', ')} (${inBound}/${outcomes.length} accepted within ${ANSWER_BOUND_MS / 1000} s)`;
}
