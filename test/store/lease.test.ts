import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  acquireLease,
  getLease,
  openStore,
  releaseLease,
  renewLease,
} from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { tempStores } from './tempStore.js';
import type { TempStores } from './tempStore.js';

let temp: TempStores;
let first: Store;
let second: Store;
beforeEach(() => {
  temp = tempStores();
  first = temp.open();
  // A second connection, as a second daemon on the same file would have.
  second = openStore({ path: first.path, clock: temp.clock });
});
afterEach(() => {
  second.close();
  temp.cleanup();
});

const ttl = 30_000;

describe('lease', () => {
  it('refuses a second holder while valid and hands over after expiry', () => {
    expect(acquireLease(first, 'daemon', 'host-a', ttl)).toBe(true);
    expect(acquireLease(second, 'daemon', 'host-b', ttl)).toBe(false);

    temp.clock.advance(ttl - 1);
    expect(acquireLease(second, 'daemon', 'host-b', ttl)).toBe(false);

    temp.clock.advance(1);
    expect(acquireLease(second, 'daemon', 'host-b', ttl)).toBe(true);
    expect(getLease(first, 'daemon')).toEqual({
      name: 'daemon',
      holder: 'host-b',
      acquiredAt: '2026-01-15T08:00:30.000Z',
      expiresAt: '2026-01-15T08:01:00.000Z',
    });
    expect(renewLease(first, 'daemon', 'host-a', ttl)).toBe(false);
    expect(acquireLease(first, 'daemon', 'host-a', ttl)).toBe(false);
  });

  it('is extended by renewal, which keeps others out', () => {
    acquireLease(first, 'daemon', 'host-a', ttl);
    temp.clock.advance(20_000);
    expect(renewLease(first, 'daemon', 'host-a', ttl)).toBe(true);
    temp.clock.advance(20_000);
    expect(acquireLease(second, 'daemon', 'host-b', ttl)).toBe(false);
    expect(getLease(second, 'daemon')).toMatchObject({
      holder: 'host-a',
      acquiredAt: '2026-01-15T08:00:00.000Z',
      expiresAt: '2026-01-15T08:00:50.000Z',
    });
  });

  it('is free at once after release, and only its holder can release it', () => {
    acquireLease(first, 'daemon', 'host-a', ttl);
    expect(releaseLease(second, 'daemon', 'host-b')).toBe(false);
    expect(acquireLease(second, 'daemon', 'host-b', ttl)).toBe(false);
    expect(releaseLease(first, 'daemon', 'host-a')).toBe(true);
    expect(acquireLease(second, 'daemon', 'host-b', ttl)).toBe(true);
  });

  it('keeps leases of different names apart', () => {
    expect(acquireLease(first, 'daemon', 'host-a', ttl)).toBe(true);
    expect(acquireLease(second, 'inbox', 'host-b', ttl)).toBe(true);
  });
});
