import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import { fail, type Outcome, type Verdict } from './verdict.js';

/** One point of the check: its id, the checks it needs to have passed, and what it does. */
export interface CheckDefinition<Context> {
  id: string;
  /** Checks whose failure makes this one pointless: it is then skipped, naming them. */
  needs?: readonly string[];
  /** `signal` aborts when the check's time is up; a check lets go of what it holds then. */
  run(context: Context, signal: AbortSignal): Promise<Outcome>;
}

export interface RunnerDeps {
  clock: Clock;
  /** The time limit of each check. */
  limitMs: number;
  /**
   * Resolves after `ms`, or at once when `signal` aborts (the check ended first): the injected
   * timer of the time limit, so that tests never wait in real time.
   */
  sleep(ms: number, signal: AbortSignal, id: string): Promise<void>;
}

function seconds(ms: number): string {
  return `${Math.round((ms / 1000) * 10) / 10} s`;
}

async function runOne<Context>(
  check: CheckDefinition<Context>,
  context: Context,
  deps: RunnerDeps,
): Promise<Outcome> {
  const done = new AbortController();
  // Resolves to nothing when the time is up: the race then has no outcome.
  const timer = deps.sleep(deps.limitMs, done.signal, check.id).then(() => undefined);
  try {
    const result = await Promise.race([check.run(context, done.signal), timer]);
    if (result !== undefined) return result;
    return fail(
      `did not finish within ${seconds(deps.limitMs)}`,
      'the other end is slow or does not answer; give it more time with --timeout <seconds>, or look at what the checks before this one say',
    );
  } catch (error) {
    return fail(errorMessage(error));
  } finally {
    done.abort();
  }
}

/**
 * Why a check is not tried: the first of its prerequisites that failed, or the failure that
 * stopped a prerequisite in turn (the cause, not the chain, is what to act on).
 */
function blockedBy(needs: readonly string[], outcomes: ReadonlyMap<string, Outcome>) {
  for (const need of needs) {
    const seen = outcomes.get(need);
    if (seen?.status === 'fail') return `not tried: ${need} failed`;
    if (seen?.blocked === true) return seen.message;
  }
  return undefined;
}

/**
 * Runs the checks one after another, each within its time limit; a check whose prerequisite
 * failed is skipped, naming it. A prerequisite left out of the run (--only, --skip) blocks
 * nothing: the check then finds out for itself.
 */
export async function runChecks<Context>(
  checks: readonly CheckDefinition<Context>[],
  context: Context,
  deps: RunnerDeps,
): Promise<Verdict[]> {
  const outcomes = new Map<string, Outcome>();
  const verdicts: Verdict[] = [];
  for (const check of checks) {
    const started = deps.clock.now().getTime();
    const reason = blockedBy(check.needs ?? [], outcomes);
    const outcome: Outcome =
      reason === undefined
        ? await runOne(check, context, deps)
        : { status: 'skip', message: reason, blocked: true };
    outcomes.set(check.id, outcome);
    const ms = Math.max(0, deps.clock.now().getTime() - started);
    verdicts.push({
      id: check.id,
      status: outcome.status,
      ms,
      message: outcome.message,
      hint: outcome.hint ?? null,
    });
  }
  return verdicts;
}
