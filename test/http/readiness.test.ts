import { describe, expect, it } from 'vitest';
import { readiness, scheduleIntervalMs } from '../../src/http/readiness.js';

const now = new Date('2026-03-01T12:00:30.000Z');
const startedAt = new Date('2026-03-01T11:00:00.000Z');

describe('readiness', () => {
  it('measures schedule intervals', () => {
    expect(scheduleIntervalMs('*/1 * * * *', now)).toBe(60_000);
    expect(scheduleIntervalMs('*/5 * * * *', now)).toBe(300_000);
    expect(scheduleIntervalMs('0 * * * *', now)).toBe(3_600_000);
  });

  it('is ready when every resource pulled recently enough', () => {
    const result = readiness({
      now,
      startedAt,
      databaseOk: true,
      toleratedIntervals: 3,
      resources: [
        {
          resource: 'singleOrder',
          schedule: '*/1 * * * *',
          lastSuccessAt: '2026-03-01T11:58:00.000Z',
        },
        { resource: 'article', schedule: '0 * * * *', lastSuccessAt: '2026-03-01T10:00:00.000Z' },
      ],
    });
    expect(result).toEqual({ ready: true, problems: [] });
  });

  it('names each resource whose pulls are late, and a dead database', () => {
    const result = readiness({
      now,
      startedAt,
      databaseOk: false,
      toleratedIntervals: 3,
      resources: [
        {
          resource: 'singleOrder',
          schedule: '*/1 * * * *',
          lastSuccessAt: '2026-03-01T11:50:00.000Z',
        },
        { resource: 'patient', schedule: '*/5 * * * *', lastSuccessAt: undefined },
      ],
    });
    expect(result.ready).toBe(false);
    expect(result.problems).toEqual([
      'the database does not answer',
      'singleOrder: last successful pull 2026-03-01T11:50:00.000Z, expected one every 4 minutes at most',
      'patient: no successful pull yet, expected one every 16 minutes at most',
    ]);
  });
});
