import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError, type Command } from 'commander';
import type { CheckDeps } from '../../check/index.js';
import { systemClock } from '../../shared/clock.js';
import { loadedConfigOf } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

/** The time limit of each check unless `--timeout` says otherwise. */
export const DEFAULT_CHECK_SECONDS = 10;

interface CheckOptions extends ConfigOption {
  online?: boolean;
  json?: boolean;
  strict?: boolean;
  only: string[];
  skip: string[];
  timeout?: number;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function secondsOf(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
    throw new InvalidArgumentError('a number of seconds above 0, at most 600');
  }
  return seconds;
}

/** The system's clock, environment and timers, as the daemon has them. */
function checkDeps(options: CheckOptions): CheckDeps {
  return {
    clock: systemClock,
    limitMs: (options.timeout ?? DEFAULT_CHECK_SECONDS) * 1000,
    // Aborted when the check ended first: the timer goes with it.
    sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    env: process.env,
    cwd: process.cwd(),
  };
}

function closing(failed: number, warned: number, code: number): string {
  if (code === EXIT.failure) return `check --online: ${failed} check(s) failed (see above)`;
  return `check --online --strict: ${warned} warning(s) (see above)`;
}

async function checkAction(options: CheckOptions): Promise<void> {
  if (options.online !== true) {
    throw new CliExit(
      EXIT.usage,
      'check needs --online: it talks to the platform and the ERP (read-only); the offline check of the config is `homecare-sync config check`',
    );
  }
  const { config } = loadedConfigOf(options);
  // Loaded when asked for: every command loads this module (program.ts), few run the check.
  const { ALL_CHECK_IDS, exitCodeOf, reportJson, reportText, runOnlineCheck, UnknownCheckError } =
    await import('../../check/index.js');
  let report;
  try {
    report = await runOnlineCheck(config, checkDeps(options), {
      only: options.only,
      skip: options.skip,
    });
  } catch (error) {
    if (!(error instanceof UnknownCheckError)) throw error;
    const ids = ALL_CHECK_IDS.filter((id) => !id.startsWith('read.')).join(', ');
    throw new CliExit(
      EXIT.usage,
      `${error.message}\nchecks: ${ids}, read.<resource>; or a group: platform, read, erp, local`,
    );
  }
  const strict = options.strict === true;
  process.stdout.write(
    options.json === true
      ? `${JSON.stringify(reportJson(report, strict), null, 2)}\n`
      : reportText(report, strict),
  );
  const code = exitCodeOf(report.checks, strict);
  if (code === 0) return;
  const count = (status: string) => report.checks.filter((c) => c.status === status).length;
  throw new CliExit(code, closing(count('fail'), count('warn'), code));
}

/** `check --online [--json] [--strict] [--only …] [--skip …] [--timeout <s>]`. */
export function checkCommand(): Command {
  return commandWithConfig(
    'check',
    'first contact: one verdict per point (platform reach, key and tenant, variant, clock, read rights per resource, the ERP, the local store); read-only on the platform',
  )
    .option('--online', 'talk to the platform and the ERP (the offline check is `config check`)')
    .option('--json', 'print JSON: checks[] with id, status, ms, message, hint')
    .option('--strict', 'exit 2 when a check warns')
    .option(
      '--only <checks>',
      'only these checks or groups (comma-separated, repeatable)',
      collect,
      [],
    )
    .option(
      '--skip <checks>',
      'leave these checks or groups out (comma-separated, repeatable)',
      collect,
      [],
    )
    .option(
      '--timeout <seconds>',
      `time limit of each check (default ${DEFAULT_CHECK_SECONDS})`,
      secondsOf,
    )
    .addHelpText(
      'after',
      '\nGroups: platform, read, erp, local. Exit code 0 when nothing fails, 1 on a failure, 2 on a warning with --strict (and on a usage error).\nThe verdicts are kept in the database: `status` shows them, /metrics exports homecare_sync_check_status.',
    )
    .action(checkAction);
}
