import { setImmediate as nextTurn } from 'node:timers/promises';
import { errorMessage, failureLevel } from '../shared/errors.js';
import { repeat, type Repeating } from '../shared/repeat.js';
import type { KindFilter } from '../store/index.js';
import { claimUnits, readyWindow } from './claim.js';
import { weightedTurns, type WeightOf } from './fairShare.js';
import { runPass, type PassScope } from './pass.js';

export interface ChannelOptions extends PassScope {
  /** Named in log lines: `deliveries`, `platform writes`. */
  name: string;
  kinds: KindFilter;
  leaseMs: number;
  /** Whether `homecare-sync pause push` holds the channel's jobs back. */
  pausable: boolean;
  /** The kinds' weights: the kinds with ready jobs take turns by them (fairShare.ts). */
  weightOf?: WeightOf;
}

/**
 * One of the worker's channels: passes over the jobs of its kinds only, so that its backlog never
 * holds back the other channel's jobs.
 */
export interface Channel {
  readonly kinds: KindFilter;
  /**
   * A pass: claims the units of its kinds ready now and runs them, `concurrency` at once;
   * returns how many jobs ran. A channel's passes never overlap; a second caller waits.
   */
  runOnce(): Promise<number>;
  /** A job of the channel's kinds was queued in this process: the next pass follows at once. */
  wake(): void;
  /** Passes at once, then every `intervalMs`, at once after a pass that ran something or a wake. */
  start(intervalMs: number): void;
  /** Ends the loop; resolves once its pass has ended. */
  stop(): Promise<void>;
}

export function createChannel(options: ChannelOptions): Channel {
  const { weightOf, ...passScope } = options;
  const scope = {
    ...passScope,
    readyLimit: readyWindow(options.runner.handlers),
    lanes: options.concurrency,
    ...(weightOf === undefined ? {} : { turns: weightedTurns(weightOf) }),
  };
  let pass: Promise<number> = Promise.resolve(0);
  let loop: Repeating | undefined;

  /**
   * Runs a pass on a turn of the event loop of its own. A pass whose jobs all end without I/O
   * (hand-overs that fail before any request or file, waiting for a reference) resolves in
   * microtasks alone; pass after pass would then keep everything else from running — the pull
   * that would bring the reference, timers, the log's writes — for as long as jobs are ready.
   */
  function runOnce(): Promise<number> {
    // The pass before failed to whoever awaited it (runOnce's caller, the loop's onError).
    pass = pass
      .catch(() => 0)
      .then(() => nextTurn())
      .then(() => runPass(scope, claimUnits(scope)));
    return pass;
  }

  const passFailed = (error: unknown) =>
    options.runner.logger[failureLevel(error)](
      { err: error },
      `queue: ${options.name}: pass failed: ${errorMessage(error)}; trying again`,
    );

  return {
    kinds: options.kinds,
    runOnce,
    wake: () => loop?.wake(),
    start(intervalMs) {
      // A pass that ran something may have left more ready: the next follows at once.
      loop = repeat(async () => (await runOnce()) > 0, {
        intervalMs,
        firstAtOnce: true,
        clock: options.runner.clock,
        onError: passFailed,
      });
    },
    async stop() {
      await loop?.stop();
      // Waited for, not judged: its failure went to the loop's onError (passFailed).
      await pass.catch(() => 0);
      loop = undefined;
    },
  };
}
