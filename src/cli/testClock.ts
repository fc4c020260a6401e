import { OffsetClock, systemClock, type Clock } from '../shared/clock.js';

/** Set to `ipc` by a test that drives the daemon's clock over the process's IPC channel. */
export const TEST_CLOCK_ENV = 'HOMECARE_SYNC_TEST_CLOCK';

/** What the parent sends: move the clock on by `advanceMs`. */
export interface ClockMessage {
  clock: { advanceMs: number };
}

/** What the child answers once the clock moved: its time now. */
export interface ClockAnswer {
  clock: { now: string };
}

function isClockMessage(message: unknown): message is ClockMessage {
  const clock = (message as { clock?: { advanceMs?: unknown } } | null)?.clock;
  return typeof clock?.advanceMs === 'number' && Number.isFinite(clock.advanceMs);
}

/**
 * The clock of a process (made once: a reload's daemons share it). The system's, unless a
 * test asked for one it drives: `HOMECARE_SYNC_TEST_CLOCK=ipc` and an IPC channel to the parent,
 * which only a parent that spawned the CLI with one has (a container, a shell or a supervisor
 * never does). Then it is the system's clock plus an offset the parent moves (`ClockMessage`):
 * timers still run in real time, while everything the clock decides (back-off, a breaker's
 * pause, a `Retry-After`, a state's summary every 15 minutes, readiness, alert digests) passes
 * at once, so a test of the daemon as a process need not wait for it.
 */
export function clockOf(
  env: Readonly<Record<string, string | undefined>>,
  parent: Pick<NodeJS.Process, 'send' | 'on' | 'channel'>,
): Clock {
  const send = parent.send?.bind(parent);
  if (env[TEST_CLOCK_ENV] !== 'ipc' || send === undefined) return systemClock;
  const clock = new OffsetClock(systemClock);
  parent.on('message', (message: unknown) => {
    if (!isClockMessage(message)) return;
    clock.move(message.clock.advanceMs);
    const answer: ClockAnswer = { clock: { now: clock.now().toISOString() } };
    send(answer);
  });
  // The channel must not keep the process alive: it ends as it would without one.
  parent.channel?.unref();
  return clock;
}
