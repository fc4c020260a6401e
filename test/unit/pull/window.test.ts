import { describe, expect, it } from 'vitest';
import {
  FIRST_PULL_SINCE,
  nextWatermark,
  pullSince,
  queryFor,
  reconcileSince,
} from '../../../src/pull/window.js';

const settings = { overlapSeconds: 120, createdLookbackDays: 30 };
const now = new Date('2026-03-31T12:00:00.000Z');
const created = {
  resource: 'singleOrder' as const,
  filter: 'created',
  status: 'created',
  timeParam: 'updatedAfter' as const,
};
const updated = { ...created, filter: 'updated', status: 'updated' };

describe('pull window', () => {
  it('starts a first pull at the beginning of time', () => {
    expect(pullSince(updated, undefined, now, settings)).toBe(FIRST_PULL_SINCE);
  });

  it('continues from the watermark', () => {
    expect(pullSince(updated, '2026-03-31T11:58:00.000Z', now, settings)).toBe(
      '2026-03-31T11:58:00.000Z',
    );
  });

  it('looks back createdLookbackDays on the created list', () => {
    expect(pullSince(created, '2026-03-31T11:58:00.000Z', now, settings)).toBe(
      '2026-03-01T12:00:00.000Z',
    );
    expect(pullSince(created, '2026-02-01T00:00:00.000Z', now, settings)).toBe(
      '2026-02-01T00:00:00.000Z',
    );
  });

  it('takes the next watermark on the platform clock, minus the overlap', () => {
    const start = new Date('2026-03-31T12:00:00.000Z');
    expect(nextWatermark(start, 0, settings)).toBe('2026-03-31T11:58:00.000Z');
    expect(nextWatermark(start, -600_000, settings)).toBe('2026-03-31T11:48:00.000Z');
    expect(nextWatermark(start, 600_000, settings)).toBe('2026-03-31T12:08:00.000Z');
  });

  it('reconciles N days back', () => {
    expect(reconcileSince(now, 7)).toBe('2026-03-24T12:00:00.000Z');
  });

  it('builds the query from the target', () => {
    expect(queryFor(created, 'T')).toEqual({ status: 'created', updatedAfter: 'T' });
    expect(queryFor({ resource: 'region', filter: '' }, 'T')).toEqual({});
    expect(queryFor({ resource: 'document', filter: '', timeParam: 'createdAfter' }, 'T')).toEqual({
      createdAfter: 'T',
    });
  });
});
