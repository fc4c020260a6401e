import type { Logger } from 'pino';
import type { Clock } from '../shared/clock.js';
import { targetName, type PullTarget } from './targets.js';

/** Without a terminal, a pull still going says how far it got this often, at info. */
export const PROGRESS_LOG_MS = 30_000;
/** On a terminal, the progress line is drawn this long after a pull starts, and again as often. */
export const PROGRESS_DRAW_MS = 1_000;

/** Erases the terminal's current line and puts the cursor at its start. */
const CLEAR_LINE = '\r\x1b[2K';

export interface ProgressRun {
  target: PullTarget;
  mode: 'incremental' | 'reconcile';
  /**
   * What the last run like this one fetched (`PullStore.lastCount`): a list carries no total,
   * so the time left is estimated from it. Absent where no such run is known, or where runs
   * differ too much to compare (incremental pulls of a window).
   */
  expected: number | undefined;
}

export interface ProgressTracker {
  /** `count` records fetched so far; said when the interval since the last saying has passed. */
  fetched(count: number): void;
  /** The run ended, either way: its part of the terminal line goes. */
  end(): void;
}

export type PullProgress = (run: ProgressRun) => ProgressTracker;

/** Where the progress line is drawn: stderr, when it is a terminal. */
export interface ProgressTerminal {
  write(text: string): unknown;
}

export interface ProgressFigures {
  fetched: number;
  /** Records a second since the run started. */
  perSecond: number;
  expected?: number;
  /** Seconds left at that rate; absent once the run fetched more than `expected`. */
  etaSeconds?: number;
}

export function progressFigures(
  fetched: number,
  elapsedMs: number,
  expected: number | undefined,
): ProgressFigures {
  const rate = elapsedMs > 0 ? (fetched * 1000) / elapsedMs : 0;
  const figures = { fetched, perSecond: Math.round(rate) };
  if (expected === undefined) return figures;
  const left = expected - fetched;
  if (left <= 0 || rate === 0) return { ...figures, expected };
  return { ...figures, expected, etaSeconds: Math.ceil(left / rate) };
}

function aboutDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Records so far, the rate, and the time left where the last run gives an estimate. */
export function progressText(figures: ProgressFigures): string {
  const { fetched, perSecond, expected, etaSeconds } = figures;
  const base = `${fetched} records so far, ${perSecond}/s`;
  if (expected === undefined) return base;
  if (etaSeconds === undefined) return `${base}, more than the last run's ${expected}`;
  return `${base}, about ${aboutDuration(etaSeconds)} left (the last run had ${expected})`;
}

/**
 * One line on the terminal for every pull under way (runs of different resources overlap),
 * redrawn in place; a run that ends takes its part away.
 */
function terminalBoard(terminal: ProgressTerminal) {
  const parts = new Map<object, string>();
  const draw = (): void => {
    terminal.write(CLEAR_LINE + [...parts.values()].join(' | '));
  };
  return {
    show(run: object, text: string): void {
      parts.set(run, text);
      draw();
    },
    remove(run: object): void {
      if (!parts.delete(run)) return;
      if (parts.size > 0) draw();
      else terminal.write(CLEAR_LINE);
    },
  };
}

/**
 * How a long pull (a first sync, a reconciliation, a whole list) says how far it got: on a
 * terminal, a line redrawn every PROGRESS_DRAW_MS; otherwise (a service's log) an info line
 * every PROGRESS_LOG_MS. A run shorter than that interval says nothing. Time is read from
 * `clock` at each record, so a list that stalls says nothing until its next record.
 */
export function pullProgress(options: {
  clock: Clock;
  logger: Logger;
  terminal?: ProgressTerminal | undefined;
}): PullProgress {
  const { clock, logger, terminal } = options;
  const board = terminal === undefined ? undefined : terminalBoard(terminal);
  const intervalMs = board === undefined ? PROGRESS_LOG_MS : PROGRESS_DRAW_MS;
  return (run) => {
    const key = {};
    const name = targetName(run.target);
    const startedAt = clock.now().getTime();
    let saidAt = startedAt;
    return {
      fetched(count) {
        const now = clock.now().getTime();
        // A clock stepped back starts the interval again rather than silencing it.
        if (now < saidAt) saidAt = now;
        if (now - saidAt < intervalMs) return;
        saidAt = now;
        const figures = progressFigures(count, now - startedAt, run.expected);
        if (board !== undefined) {
          board.show(key, `${name}: ${progressText(figures)}`);
          return;
        }
        const { resource, filter } = run.target;
        logger.info(
          { resource, filter: filter || undefined, mode: run.mode, ...figures },
          `pull of ${name} still going: ${progressText(figures)}`,
        );
      },
      end: () => board?.remove(key),
    };
  };
}
