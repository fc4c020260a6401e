import { afterEach, describe, expect, it } from 'vitest';
import { PlatformClock } from '../../../src/platform/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { clientFor, collect } from '../../support/platform/clientFor.js';
import {
  json,
  startScriptedServer,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

describe('PlatformClock', () => {
  it('is the local clock until a response is seen', () => {
    const clock = new FakeClock('2026-01-15T08:00:00.000Z');
    const platform = new PlatformClock(clock);
    expect(platform.skewMs()).toBe(0);
    expect(platform.platformNow().toISOString()).toBe('2026-01-15T08:00:00.000Z');
  });

  it('takes the offset against the midpoint of send and receive', () => {
    const clock = new FakeClock('2026-01-15T08:00:01.000Z');
    const platform = new PlatformClock(clock);
    platform.observe(
      new Date('2026-01-15T08:00:00.000Z'),
      new Date('2026-01-15T08:00:01.000Z'),
      'Thu, 15 Jan 2026 07:59:00 GMT',
    );
    expect(platform.skewMs()).toBe(-60_500);
    expect(platform.platformNow().toISOString()).toBe('2026-01-15T07:59:00.500Z');
  });

  it('ignores a missing or unreadable Date header and keeps the last estimate', () => {
    const clock = new FakeClock('2026-01-15T08:00:00.000Z');
    const platform = new PlatformClock(clock);
    platform.observe(clock.now(), clock.now(), 'Thu, 15 Jan 2026 08:00:05 GMT');
    platform.observe(clock.now(), clock.now(), 'not a date');
    platform.observe(clock.now(), clock.now(), undefined);
    expect(platform.skewMs()).toBe(5_000);
  });
});

describe('PlatformClock: steps', () => {
  /** A platform clock whose monotonic timer runs with the fake local clock. */
  const platformClockOn = (clock: FakeClock) => {
    const start = clock.now().getTime();
    return new PlatformClock(clock, () => clock.now().getTime() - start);
  };
  const at = (clock: FakeClock, platform: PlatformClock, offsetMs: number) =>
    platform.observe(
      clock.now(),
      clock.now(),
      new Date(clock.now().getTime() + offsetMs).toUTCString(),
    );

  it('counts a backward step, and not the noise of the estimate', () => {
    const clock = new FakeClock('2026-01-15T08:00:00.000Z');
    const platform = platformClockOn(clock);
    at(clock, platform, 0);
    at(clock, platform, -2_000);
    expect(platform.steppedBackMs()).toBe(0);
    at(clock, platform, -3_600_000);
    expect(platform.steppedBackMs()).toBe(3_598_000);
    expect(platform.skewMs()).toBe(-3_600_000);
    at(clock, platform, -3_630_000);
    expect(platform.steppedBackMs()).toBe(3_628_000);
  });

  it('measures a step by the time since the last answer, not by the local clock', () => {
    const clock = new FakeClock('2026-01-15T08:00:00.000Z');
    let elapsed = 0;
    const platform = new PlatformClock(clock, () => elapsed);
    at(clock, platform, 0);
    // The local clock steps ten minutes ahead; the platform's did not move: no step back.
    clock.advance(10 * 60_000);
    at(clock, platform, -10 * 60_000);
    expect(platform.steppedBackMs()).toBe(0);
    expect(platform.skewMs()).toBe(-10 * 60_000);
    // Twenty minutes later the platform answers one hour behind where it would be.
    elapsed += 20 * 60_000;
    clock.advance(20 * 60_000);
    at(clock, platform, -70 * 60_000);
    expect(platform.steppedBackMs()).toBe(60 * 60_000);
  });

  it('does not believe one answer far ahead, and takes the next normal one for no step', () => {
    const clock = new FakeClock('2026-01-15T08:00:00.000Z');
    const platform = platformClockOn(clock);
    at(clock, platform, 0);
    platform.observe(clock.now(), clock.now(), 'Thu, 01 Jan 2099 00:00:00 GMT');
    expect(platform.skewMs()).toBe(0);
    at(clock, platform, 1_000);
    expect(platform.skewMs()).toBe(1_000);
    expect(platform.steppedBackMs()).toBe(0);
  });

  it('follows a jump forward three answers confirm, and counts the way back as a step', () => {
    const clock = new FakeClock('2026-01-15T08:00:00.000Z');
    const platform = platformClockOn(clock);
    at(clock, platform, 0);
    for (const offset of [7_200_000, 7_201_000]) {
      at(clock, platform, offset);
      expect(platform.skewMs()).toBe(0);
    }
    at(clock, platform, 7_200_000);
    expect(platform.skewMs()).toBe(7_200_000);
    at(clock, platform, 0);
    expect(platform.steppedBackMs()).toBe(7_200_000);
  });
});

describe('clock skew through the client', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => server?.close());

  it('follows a platform whose clock runs 10 minutes ahead, then one that is corrected', async () => {
    const local = new Date('2026-01-15T08:00:00.000Z');
    const ahead = new Date(local.getTime() + 10 * 60_000).toUTCString();
    server = await startScriptedServer(
      json(200, [], { date: ahead }),
      json(200, [], { date: local.toUTCString() }),
    );
    const clock = new FakeClock(local);
    const { client } = clientFor(server.url, 'B', { clock });
    expect(client.platformNow().toISOString()).toBe(local.toISOString());

    await collect(client.listSingleOrders({ status: 'created', updatedAfter: local }));
    expect(client.skewMs()).toBe(600_000);
    clock.advance(5_000);
    expect(client.platformNow().toISOString()).toBe('2026-01-15T08:10:05.000Z');

    await collect(client.listSingleOrders({ status: 'created', updatedAfter: local }));
    expect(client.skewMs()).toBe(-5_000);
    await client.close();
  });
});
