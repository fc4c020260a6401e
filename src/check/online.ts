import { secretValues, type Config } from '../config/index.js';
import type { Variant } from '../contract/index.js';
import { REDACTED } from '../log/index.js';
import { normaliseSecrets } from '../log/scrubText.js';
import { errorMessage } from '../shared/errors.js';
import { keepOnlineChecks } from '../store/index.js';
import { checksFor } from './checks.js';
import { createCheckContext, type CheckContext, type CheckDeps } from './context.js';
import { runChecks } from './runner.js';
import { selectChecks } from './select.js';
import type { Verdict } from './verdict.js';

/** What `check --online` found, as `--json` prints it. */
export interface OnlineCheckReport {
  checkedAt: string;
  variant: Variant;
  checks: Verdict[];
  /** Whether the verdicts are kept in the database for `status` and /metrics; why not if not. */
  kept: { ok: true } | { ok: false; reason: string };
}

export interface OnlineCheckOptions {
  /** `--only` and `--skip`: check ids or their groups; both empty: every check. */
  only?: readonly string[];
  skip?: readonly string[];
}

/** A `--only`/`--skip` name no check has: the command stops before checking anything. */
export class UnknownCheckError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'UnknownCheckError';
  }
}

/**
 * Secrets never reach what the check prints or keeps, should a message quote one (an answer's
 * excerpt): each configured secret is replaced where it stands. Nothing else is: the messages
 * are the check's own words, paths and ids, which key-based redaction would mangle.
 */
function scrubbed(config: Config, verdicts: readonly Verdict[]): Verdict[] {
  const secrets = normaliseSecrets(secretValues(config));
  const clean = (text: string) =>
    secrets.reduce((t, secret) => t.split(secret).join(REDACTED), text);
  return verdicts.map((v) => ({
    ...v,
    message: clean(v.message),
    hint: v.hint === null ? null : clean(v.hint),
  }));
}

function keep(
  context: CheckContext,
  checkedAt: string,
  verdicts: readonly Verdict[],
  all: readonly string[],
): OnlineCheckReport['kept'] {
  const database = context.database();
  if (database.state !== 'open') return { ok: false, reason: database.message };
  const whole = verdicts.length === all.length;
  const positions = Object.fromEntries(all.map((id, index) => [id, index]));
  try {
    keepOnlineChecks(database.store, { checkedAt, whole, checks: verdicts, positions });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
}

/**
 * `check --online`: every point of first contact, one verdict each, read-only on the platform
 * and side-effect-free for the ERP (a hidden probe file, removed again). The verdicts are kept
 * in the database, which is created when missing but never migrated.
 */
export async function runOnlineCheck(
  config: Config,
  deps: CheckDeps,
  options: OnlineCheckOptions = {},
): Promise<OnlineCheckReport> {
  const context = createCheckContext(config, deps);
  try {
    const all = checksFor(context);
    const ids = all.map((check) => check.id);
    const selected = selectChecks(ids, options.only ?? [], options.skip ?? []);
    if (selected.problems.length > 0) throw new UnknownCheckError(selected.problems);
    const checks = all.filter((check) => selected.ids.includes(check.id));
    const checkedAt = deps.clock.now().toISOString();
    const verdicts = scrubbed(config, await runChecks(checks, context, deps));
    const kept = keep(context, checkedAt, verdicts, ids);
    return { checkedAt, variant: config.platform.variant, checks: verdicts, kept };
  } finally {
    await context.close();
  }
}
