import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  advanceCheckpoint,
  getCheckpoint,
  getRun,
  latestRuns,
  listCheckpoints,
  recordRun,
  resetCheckpoint,
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

describe('checkpoints', () => {
  it('start empty and store the first watermark in UTC', () => {
    expect(getCheckpoint(store, 'singleOrder', 'created')).toBeUndefined();
    expect(advanceCheckpoint(store, 'singleOrder', 'created', '2026-01-15T09:00:00+01:00')).toBe(
      '2026-01-15T08:00:00.000Z',
    );
    expect(getCheckpoint(store, 'singleOrder', 'created')).toMatchObject({
      resource: 'singleOrder',
      filter: 'created',
      watermark: '2026-01-15T08:00:00.000Z',
      updatedAt: '2026-01-15T08:00:00.000Z',
    });
  });

  it('never move backwards', () => {
    advanceCheckpoint(store, 'article', '', new Date('2026-01-15T08:00:00Z'));
    temp.clock.advance(1000);
    expect(advanceCheckpoint(store, 'article', '', new Date('2026-01-14T23:00:00Z'))).toBe(
      '2026-01-15T08:00:00.000Z',
    );
    expect(getCheckpoint(store, 'article')).toMatchObject({
      watermark: '2026-01-15T08:00:00.000Z',
      updatedAt: '2026-01-15T08:00:00.000Z',
    });

    temp.clock.advance(1000);
    expect(advanceCheckpoint(store, 'article', '', '2026-01-15T08:00:00.001Z')).toBe(
      '2026-01-15T08:00:00.001Z',
    );
    expect(getCheckpoint(store, 'article')?.updatedAt).toBe('2026-01-15T08:00:02.000Z');
  });

  it('keep one watermark per status filter', () => {
    advanceCheckpoint(store, 'singleOrder', 'created', '2026-01-10T00:00:00Z');
    advanceCheckpoint(store, 'singleOrder', 'updated', '2026-01-12T00:00:00Z');
    advanceCheckpoint(store, 'doctor', '', '2026-01-11T00:00:00Z');
    expect(listCheckpoints(store).map((c) => [c.resource, c.filter, c.watermark])).toEqual([
      ['doctor', '', '2026-01-11T00:00:00.000Z'],
      ['singleOrder', 'created', '2026-01-10T00:00:00.000Z'],
      ['singleOrder', 'updated', '2026-01-12T00:00:00.000Z'],
    ]);
  });

  it('refuse a watermark that is not a date-time', () => {
    expect(() => advanceCheckpoint(store, 'article', '', 'gestern')).toThrow(
      'watermark of article is not a date-time: "gestern"; use ISO 8601',
    );
  });

  it('are moved back or cleared by a reset, for every filter of the resource', () => {
    advanceCheckpoint(store, 'singleOrder', 'created', '2026-01-10T00:00:00Z');
    advanceCheckpoint(store, 'singleOrder', 'updated', '2026-01-12T00:00:00Z');
    advanceCheckpoint(store, 'article', '', '2026-01-12T00:00:00Z');

    expect(resetCheckpoint(store, 'singleOrder', '2025-12-01T00:00:00Z')).toBe(2);
    expect(getCheckpoint(store, 'singleOrder', 'updated')?.watermark).toBe(
      '2025-12-01T00:00:00.000Z',
    );
    advanceCheckpoint(store, 'singleOrder', 'updated', '2025-12-02T00:00:00Z');
    expect(getCheckpoint(store, 'singleOrder', 'updated')?.watermark).toBe(
      '2025-12-02T00:00:00.000Z',
    );

    expect(resetCheckpoint(store, 'singleOrder')).toBe(2);
    expect(getCheckpoint(store, 'singleOrder', 'created')?.watermark).toBeUndefined();
    expect(getCheckpoint(store, 'article')?.watermark).toBe('2026-01-12T00:00:00.000Z');
  });

  it('are created by a reset for the filters named', () => {
    expect(resetCheckpoint(store, 'users', '2026-01-01T00:00:00Z', ['active', 'archived'])).toBe(2);
    expect(listCheckpoints(store).map((c) => [c.filter, c.watermark])).toEqual([
      ['active', '2026-01-01T00:00:00.000Z'],
      ['archived', '2026-01-01T00:00:00.000Z'],
    ]);
  });
});

describe('runs', () => {
  it('record their outcome and note it on the checkpoint without moving the watermark', () => {
    advanceCheckpoint(store, 'patient', '', '2026-01-15T07:00:00Z');
    const runId = startRun(store, 'patient');
    temp.clock.advance(5000);
    recordRun(store, runId, {
      fetched: 12,
      new: 10,
      repeats: 1,
      quarantined: 1,
      ok: false,
      error: 'platform answered 503 for patient',
    });

    expect(getRun(store, runId)).toEqual({
      id: runId,
      resource: 'patient',
      filter: '',
      kind: 'pull',
      startedAt: '2026-01-15T08:00:00.000Z',
      finishedAt: '2026-01-15T08:00:05.000Z',
      fetched: 12,
      new: 10,
      repeats: 1,
      quarantined: 1,
      ok: false,
      error: 'platform answered 503 for patient',
    });
    expect(getCheckpoint(store, 'patient')).toMatchObject({
      watermark: '2026-01-15T07:00:00.000Z',
      lastRunAt: '2026-01-15T08:00:05.000Z',
      lastRunOk: false,
      lastError: 'platform answered 503 for patient',
    });

    const next = startRun(store, 'patient');
    recordRun(store, next, { fetched: 0, new: 0, repeats: 0, quarantined: 0, ok: true });
    expect(getCheckpoint(store, 'patient')).toMatchObject({ lastRunOk: true });
    expect(getCheckpoint(store, 'patient')?.lastError).toBeUndefined();
    expect(latestRuns(store).map((run) => run.id)).toEqual([next]);
  });

  it('refuse to record an unknown run', () => {
    expect(() =>
      recordRun(store, 999, { fetched: 0, new: 0, repeats: 0, quarantined: 0, ok: true }),
    ).toThrow('run 999 does not exist');
  });
});
