import { InvalidArgumentError, type Command } from 'commander';
import type { Config } from '../../config/index.js';
import { checkedPauseTarget, pauseWork, resumeWork } from '../../operations/index.js';
import {
  currentOperator,
  EVERY_TARGET,
  type Pause,
  type PauseDirection,
} from '../../store/index.js';
import { withStore } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';

function direction(value: string): PauseDirection {
  if (value === 'pull' || value === 'push') return value;
  throw new InvalidArgumentError(
    'give pull (the scheduled pulls) or push (the writes to the platform)',
  );
}

/** `name` when it can be paused; else a usage error naming the nearest name and every one. */
function checkedTarget(config: Config, way: PauseDirection, name: string | undefined): string {
  const checked = checkedPauseTarget(config, way, name);
  if (checked.ok) return checked.target;
  throw new CliExit(EXIT.usage, checked.problem);
}

/** `the pulls of patient`, `the platform writes of kind orderStatus`, `every pull`. */
function named(way: PauseDirection, target: string): string {
  if (way === 'pull') return target === EVERY_TARGET ? 'every pull' : `the pulls of ${target}`;
  return target === EVERY_TARGET ? 'every platform write' : `the platform writes of kind ${target}`;
}

/** The command that lifts the pause, to print as the way out. */
const resumeLine = (way: PauseDirection, target: string) =>
  `homecare-sync resume ${way}${target === EVERY_TARGET ? '' : ` ${target}`}`;

/** The other pauses of the direction that still hold the work back after this one changed. */
function stillPaused(way: PauseDirection, target: string, pauses: readonly Pause[]): string[] {
  return pauses
    .filter((p) => p.direction === way && p.target !== target)
    .map((p) => `still paused: ${named(way, p.target)} (${resumeLine(way, p.target)})`);
}

function effectText(way: PauseDirection): string {
  return way === 'pull'
    ? 'no pull starts, neither scheduled nor by sync (one under way finishes); checkpoints stay where they are'
    : 'queued jobs stay queued and none is sent; new ones are queued as before';
}

function pauseAction(way: PauseDirection, name: string | undefined, options: ConfigOption): void {
  const done = withStore(options, (store, config) =>
    pauseWork(store, way, checkedTarget(config, way, name), currentOperator()),
  );
  const what = named(way, done.target);
  const lines = done.changed
    ? [`${what}: paused; ${effectText(way)}`]
    : [`${what}: paused already, since ${done.since}; nothing changed`];
  lines.push(`to go on: ${resumeLine(way, done.target)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function resumeAction(way: PauseDirection, name: string | undefined, options: ConfigOption): void {
  const done = withStore(options, (store, config) =>
    resumeWork(store, way, checkedTarget(config, way, name), currentOperator()),
  );
  const what = named(way, done.target);
  const next =
    way === 'pull' ? 'the next scheduled pull takes it up' : 'the next queue pass sends its jobs';
  const lines = [
    done.resumed ? `${what}: resumed; ${next}` : `${what}: was not paused; nothing changed`,
    ...stillPaused(way, done.target, done.pauses),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

const TARGET_HELP =
  'pull: a resource (e.g. patient); push: a kind of platform write as `queue list` shows it (e.g. orderStatus, ack.singleOrder); all of the direction when left out';

/**
 * `pause <pull|push> [resource]`: stops the scheduled pulls or the platform writes (of one
 * resource or kind, or all) without a restart; the running daemon reads the pause from the
 * database before each pull run and each queue pass.
 */
export function pauseCommand(): Command {
  return commandWithConfig(
    'pause',
    'pause the scheduled pulls (pull) or the writes to the platform (push), of one resource or kind or all; work stays queued, nothing is lost',
  )
    .argument('<direction>', 'pull or push', direction)
    .argument('[resource]', TARGET_HELP)
    .action(pauseAction);
}

/** `resume <pull|push> [resource]`: lifts a pause; the daemon goes on at its next run or pass. */
export function resumeCommand(): Command {
  return commandWithConfig('resume', 'lift a pause: the work held back goes on')
    .argument('<direction>', 'pull or push', direction)
    .argument('[resource]', TARGET_HELP)
    .action(resumeAction);
}
