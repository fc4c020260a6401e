import { afterEach, describe, expect, it } from 'vitest';
import { VARIANTS } from '../../../src/contract/index.js';
import { createPlatformClient } from '../../../src/platform/index.js';
import { PermanentError } from '../../../src/shared/errors.js';
import { FakeClock } from '../../support/fakeClock.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { collect, rejection } from '../../support/platform/clientFor.js';

const SINCE = '2000-01-01T00:00:00Z';

let simulator: TestSimulator | undefined;
afterEach(async () => simulator?.close());

describe.each(VARIANTS)('against the simulator, variant %s', (variant) => {
  it('lists created single orders, acknowledges one, and reads the platform clock', async () => {
    simulator = await startTestSimulator({ variant });
    const clock = new FakeClock('2026-02-01T08:00:00.000Z');
    const client = createPlatformClient({
      baseUrl: simulator.url,
      apiKey: 'demo-key',
      variant,
      timeoutMs: 5_000,
      concurrency: 2,
      clock,
    });
    const query = { status: 'created', updatedAfter: SINCE } as const;
    const created = await collect(client.listSingleOrders(query));
    const direct = await api(simulator, 'GET', `/singleOrder?status=created&updatedAfter=${SINCE}`);
    expect(created.length).toBeGreaterThan(0);
    expect(created.map((o) => o._id)).toEqual((direct.json as { _id: string }[]).map((o) => o._id));

    const first = created[0]?._id;
    expect(typeof first).toBe('string');
    const patched = await client.patchSingleOrder(String(first), { status: 1 });
    expect(patched.status).toBe(1);
    const after = await collect(client.listSingleOrders(query));
    expect(after.map((o) => o._id)).not.toContain(first);

    // The simulator's clock (1 March) runs 28 days ahead of the local fake clock (1 February).
    expect(client.skewMs()).toBe(28 * 24 * 3_600_000);
    expect(client.platformNow().toISOString()).toBe('2026-03-01T08:00:00.000Z');
    await client.close();
  });

  it('gets a wrong key answered as a permanent error without the key in it', async () => {
    simulator = await startTestSimulator({ variant });
    const client = createPlatformClient({
      baseUrl: simulator.url,
      apiKey: 'not-a-key-0815',
      variant,
      timeoutMs: 5_000,
      concurrency: 1,
      clock: new FakeClock(),
    });
    const error = await rejection(collect(client.listRegions()));
    expect(error).toBeInstanceOf(PermanentError);
    expect((error as PermanentError).status).toBeGreaterThanOrEqual(400);
    expect(
      JSON.stringify({ ...(error as PermanentError), m: (error as Error).message }),
    ).not.toContain('not-a-key-0815');
    await client.close();
  });
});
