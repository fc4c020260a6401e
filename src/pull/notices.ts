/**
 * What a pull says of itself beside its counts: why it ended early or reads a list whole, and
 * when a platform refuses a time parameter the spec does not show.
 */
import type { ListEntry } from '../platform/index.js';
import { PermanentError } from '../shared/errors.js';
import type { PullTarget } from './targets.js';

/** What a run the daemon's stop or reload ended says, in `status` and the log. */
export const STOPPED =
  'stopped at a batch boundary for the daemon to stop or reload; the next pull goes on from the checkpoint';

/**
 * How a platform says it does not take a query parameter: 400 (bad request), 404 (no such list
 * with it) or 422 (unprocessable). 401, 403, 408 and 429 keep their own meaning.
 */
const PARAMETER_REFUSALS: ReadonlySet<number> = new Set([400, 404, 422]);

/**
 * The platform refused a time parameter the spec does not show for this list (patient,
 * erpOrder, productGroup, the contract lists): it does not take it. Where the spec shows the
 * parameter, a refusal is a failure, never a reason to pull without it.
 */
export function refusesGuessedTimeParam(
  target: PullTarget,
  error: unknown,
): error is PermanentError {
  return (
    target.timeParamGuessed === true &&
    error instanceof PermanentError &&
    error.status !== undefined &&
    PARAMETER_REFUSALS.has(error.status)
  );
}

export function withoutTimeParam(target: PullTarget, query: Record<string, string>) {
  return Object.fromEntries(Object.entries(query).filter(([name]) => name !== target.timeParam));
}

export function fallbackNotice(target: PullTarget, status: number | undefined): string {
  return `the platform refuses ${String(target.timeParam)} on the ${target.resource} list (HTTP ${String(status)}; the spec shows no parameters for it), so this list is pulled whole from now on; the ledger drops the records already seen`;
}

export function vanishedNotice(target: PullTarget, count: number): string {
  return `${count} ${target.resource} record(s) the ERP has are no longer in the platform's whole list, which leaves archived ones out: each is handed to the ERP as archived (vanished)`;
}

/** The `_id` a list entry names, '' when it names none (then it cannot have vanished). */
export function listedId(entry: ListEntry): string {
  if ('setAside' in entry) return entry.id ?? '';
  const id = entry.record['_id'];
  return typeof id === 'string' ? id : '';
}

export function steppedBackNotice(lowered: string): string {
  return `the platform's clock stepped back (its Date header), so this list is pulled again from ${lowered}, as far back as the clock went; the ledger drops the records already seen`;
}
