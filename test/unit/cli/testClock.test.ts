import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { clockOf, TEST_CLOCK_ENV } from '../../../src/cli/testClock.js';
import { systemClock } from '../../../src/shared/clock.js';

/** A stand-in for a child process's side of an IPC channel: what it sent, and a way to send to it. */
function channel() {
  const sent: unknown[] = [];
  const emitter = new EventEmitter();
  let unrefs = 0;
  const parent = {
    send: (message: unknown) => (sent.push(message), true),
    on: (event: string, listener: (message: unknown) => void) => emitter.on(event, listener),
    channel: { unref: () => void (unrefs += 1) },
  } as unknown as Parameters<typeof clockOf>[1];
  return {
    parent,
    sent,
    receive: (m: unknown) => emitter.emit('message', m),
    unrefs: () => unrefs,
  };
}

describe('the CLI clock a test drives', () => {
  it('moves by what the parent sends, answers its time, and keeps no process alive', () => {
    const ipc = channel();
    const clock = clockOf({ [TEST_CLOCK_ENV]: 'ipc' }, ipc.parent);
    const before = clock.now().getTime();
    ipc.receive({ clock: { advanceMs: 3_600_000 } });
    expect(clock.now().getTime() - before).toBeGreaterThanOrEqual(3_600_000);
    expect(ipc.sent).toHaveLength(1);
    const answered = (ipc.sent[0] as { clock: { now: string } }).clock.now;
    expect(Date.parse(answered) - before).toBeGreaterThanOrEqual(3_600_000);
    expect(ipc.unrefs()).toBe(1);
    ipc.receive({ clock: { advanceMs: 'soon' } });
    ipc.receive('anything else');
    expect(ipc.sent).toHaveLength(1);
  });

  it("is the system's clock without the variable, or without a channel to a parent", () => {
    expect(clockOf({}, channel().parent)).toBe(systemClock);
    const noChannel = { on: () => undefined } as unknown as Parameters<typeof clockOf>[1];
    expect(clockOf({ [TEST_CLOCK_ENV]: 'ipc' }, noChannel)).toBe(systemClock);
  });
});
