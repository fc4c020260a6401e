import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countQuarantined,
  listQuarantine,
  quarantine,
  startRun,
} from '../../../src/store/index.js';
import type { Store } from '../../../src/store/index.js';
import { tempStores } from '../../support/store/tempStore.js';
import type { TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
});
afterEach(() => temp.cleanup());

describe('quarantine', () => {
  it('keeps a rejected record once and lists newest first', () => {
    const runId = startRun(store, 'singleOrder', 'created');
    const bad = '{"_id":"o-1","status":"elf"}';
    expect(quarantine(store, 'singleOrder', 'o-1', 'status: expected a number', bad, runId)).toBe(
      true,
    );
    expect(quarantine(store, 'singleOrder', 'o-1', 'status: expected a number', bad)).toBe(false);
    expect(countQuarantined(store)).toBe(1);
    temp.clock.advance(1000);
    expect(quarantine(store, 'article', undefined, '_id missing', '{"name":"x"}')).toBe(true);

    expect(listQuarantine(store)).toMatchObject([
      { resource: 'article', recordId: undefined, reason: '_id missing' },
      {
        resource: 'singleOrder',
        recordId: 'o-1',
        json: bad,
        runId,
        seenAt: '2026-01-15T08:00:00.000Z',
      },
    ]);
    expect(listQuarantine(store, { resource: 'singleOrder' })).toHaveLength(1);
    expect(listQuarantine(store, { limit: 1 })).toHaveLength(1);
  });
});
