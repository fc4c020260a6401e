import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  lastCount,
  lastSuccessfulPulls,
  recordRun,
  startRun,
  type Store,
} from '../../../src/store/index.js';
import { queryPlansOf } from '../../support/queryPlans.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

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

describe('lastCount', () => {
  /** A finished run of the article list's created filter that fetched `fetched` records. */
  function counted(
    store: Store,
    fetched: number,
    how: { ok?: boolean; kind?: 'pull' | 'reconcile'; whole?: boolean },
  ): void {
    const id = startRun(store, 'article', 'created', how.kind, undefined, how.whole);
    temp.clock.advance(60_000);
    recordRun(store, id, { ...counts, fetched, ok: how.ok ?? true });
  }
  const like = (kind: 'pull' | 'reconcile', whole: boolean) => ({
    resource: 'article',
    filter: 'created',
    kind,
    whole,
  });

  it('gives the count of the last successful run of the same list, kind and wholeness', () => {
    const store = temp.open();
    counted(store, 30_000, { whole: true });
    counted(store, 12, { whole: false });
    counted(store, 31_500, { whole: true, ok: false });
    counted(store, 2_000, { kind: 'reconcile' });
    counted(store, 3, { whole: false });

    expect(lastCount(store, like('pull', true))).toBe(30_000);
    expect(lastCount(store, like('pull', false))).toBe(3);
    expect(lastCount(store, like('reconcile', false))).toBe(2_000);
    expect(lastCount(store, like('reconcile', true))).toBeUndefined();
    expect(lastCount(store, { ...like('pull', true), filter: 'archived' })).toBeUndefined();
  });

  it("walks the list's own runs by an index, newest first", () => {
    const store = temp.open();
    counted(store, 1, { whole: true });

    const plans = queryPlansOf(store, () => lastCount(store, like('pull', true)));
    expect(plans).toEqual([expect.stringMatching(/^SEARCH runs USING INDEX runs_latest/)]);
  });
});
