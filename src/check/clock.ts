import { narrowListQuery } from '../contract/index.js';
import { PlatformClock } from '../platform/index.js';
import type { CheckContext } from './context.js';
import type { CheckDefinition } from './runner.js';
import { fail, pass, warn, type Outcome } from './verdict.js';

/** An offset above this is warned about (the 5 s). */
export const CLOCK_WARN_MS = 5_000;
/** The `Date` header counts whole seconds: a measured offset is good to about one. */
const RESOLUTION_MS = 1_000;

const seconds = (ms: number) => `${Math.round(Math.abs(ms) / 100) / 10} s`;

/**
 * The verdict on the platform's clock being `offsetMs` ahead of ours (negative: behind): warn
 * above 5 s, fail beyond the overlap window (`sync.overlapSeconds`) and the header's resolution.
 */
export function clockOutcome(offsetMs: number, overlapSeconds: number): Outcome {
  const side = offsetMs >= 0 ? 'ahead of' : 'behind';
  const seen = `the platform's clock is ${seconds(offsetMs)} ${side} this machine's`;
  const fix = 'set both clocks by NTP (timedatectl, chrony); the platform operator sets theirs';
  if (Math.abs(offsetMs) > overlapSeconds * 1000 + RESOLUTION_MS) {
    return fail(
      `${seen}: more than sync.overlapSeconds (${overlapSeconds} s)`,
      `${fix}; until then a change stamped in the gap can be missed (raise sync.overlapSeconds above the offset for the while)`,
    );
  }
  if (Math.abs(offsetMs) > CLOCK_WARN_MS) return warn(seen, fix);
  return pass(`${seen} (within ${seconds(CLOCK_WARN_MS)}; the Date header counts whole seconds)`);
}

/** platform.clock: one GET, its `Date` against this machine's clock at the request's midpoint. */
async function clockCheckOutcome(context: CheckContext): Promise<Outcome> {
  const client = context.client();
  const list = context.contract.operations.find(
    (o) => o.kind === 'list' && o.resource === context.targets[0]?.resource,
  );
  if (list === undefined) return warn('no list to ask: the config pulls nothing');
  const query = new URLSearchParams(narrowListQuery(list.detail.query, context.deps.clock.now()));
  const search = query.size === 0 ? '' : `?${query.toString()}`;
  const answer = await client.peek(list.resource, `${list.pathTemplate}${search}`);
  if (answer.date === undefined) {
    return warn(
      "the platform's answers carry no Date header: its clock cannot be compared, and the daemon takes updatedAfter from this machine's clock",
      "keep this machine's clock right (NTP); ask the platform operator whether the Date header is stripped on the way (a proxy)",
    );
  }
  const seen = new PlatformClock(context.deps.clock);
  seen.observe(answer.sentAt, answer.receivedAt, answer.date);
  return clockOutcome(seen.skewMs(), context.config.sync.overlapSeconds);
}

export const clockCheck: CheckDefinition<CheckContext> = {
  id: 'platform.clock',
  needs: ['platform.key'],
  run: clockCheckOutcome,
};
