import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastSuccessfulPulls, recordRun, startRun, type Store } from '../../src/store/index.js';
import { queryPlansOf } from '../support/queryPlans.js';
import { tempStores, type TempStores } from './tempStore.js';

let temp: TempStores;
beforeEach(() => {
  temp = tempStores();
});
afterEach(() => temp.cleanup());

const counts = { fetched: 0, new: 0, repeats: 0, quarantined: 0 };

/** A run of `resource` that ends a minute later, now on the store's clock. */
function ran(
  store: Store,
  resource: string,
  how: { ok: boolean; filter?: string; kind?: 'pull' | 'reconcile' },
) {
  const id = startRun(store, resource, how.filter ?? '', how.kind ?? 'pull');
  temp.clock.advance(60_000);
  recordRun(store, id, { ...counts, ok: how.ok });
  return temp.clock.now().toISOString();
}

describe('lastSuccessfulPulls', () => {
  it('gives when each resource asked for last pulled successfully, by any of its filters', () => {
    const store = temp.open();
    ran(store, 'singleOrder', { ok: true, filter: 'created' });
    const latest = ran(store, 'singleOrder', { ok: true, filter: 'updated' });
    ran(store, 'singleOrder', { ok: false, filter: 'created' });
    ran(store, 'singleOrder', { ok: true, kind: 'reconcile' });
    startRun(store, 'singleOrder', 'created');
    const patients = ran(store, 'patient', { ok: true });
    ran(store, 'article', { ok: false });
    ran(store, 'device', { ok: true });

    expect(lastSuccessfulPulls(store, ['singleOrder', 'patient', 'article'])).toEqual({
      singleOrder: latest,
      patient: patients,
    });
  });

  it('looks each one up in an index, never reading every run (a row per pull, for good)', () => {
    const store = temp.open();
    ran(store, 'patient', { ok: true });

    const plans = queryPlansOf(store, () => lastSuccessfulPulls(store, ['patient']));
    expect(plans).toEqual([
      expect.stringMatching(/^SEARCH runs USING COVERING INDEX runs_succeeded/),
    ]);
  });
});
