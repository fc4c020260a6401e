import { describe, expect, it } from 'vitest';
import { datePatternProblem, formatDate, parseDate } from '../../../../src/erp/mapping/dates.js';

const BERLIN = 'Europe/Berlin';

describe('mapping: date patterns', () => {
  it('writes dates as they are and date-times in the time zone; other values unchanged', () => {
    expect(formatDate('2026-03-04', 'dd.MM.yyyy', BERLIN)).toBe('04.03.2026');
    expect(formatDate('2026-07-01T22:30:00Z', 'dd.MM.yyyy HH:mm:ss', BERLIN)).toBe(
      '02.07.2026 00:30:00',
    );
    // Without an offset, a date-time is a wall-clock time already.
    expect(formatDate('2026-07-01T22:30:00', 'yyyyMMddHHmm', BERLIN)).toBe('202607012230');
    expect(formatDate('soon', 'dd.MM.yyyy', BERLIN)).toBe('soon');
    expect(formatDate(5, 'dd.MM.yyyy', BERLIN)).toBe(5);
  });

  it('reads a date back, and a date-time as the instant of that wall clock in the time zone', () => {
    expect(parseDate('4.3.2026', 'dd.MM.yyyy', BERLIN)).toEqual({ value: '2026-03-04' });
    expect(parseDate('02.07.2026 00:30', 'dd.MM.yyyy HH:mm', BERLIN)).toEqual({
      value: '2026-07-01T22:30:00.000Z',
    });
    expect(parseDate('15.01.2026 09:00', 'dd.MM.yyyy HH:mm', BERLIN)).toEqual({
      value: '2026-01-15T08:00:00.000Z',
    });
  });

  it('refuses text outside the pattern and days that do not exist', () => {
    for (const text of ['2026-03-04', '31.02.2026', '01.13.2026', '04.03.26']) {
      expect(parseDate(text, 'dd.MM.yyyy', BERLIN)).toEqual({
        problem: `"${text}" is not a date in the pattern dd.MM.yyyy`,
      });
    }
  });

  it('names what is wrong with a pattern', () => {
    expect(datePatternProblem('dd.MM.yyyy HH:mm')).toBeUndefined();
    expect(datePatternProblem('DD.MM.YYYY')).toMatch(/^"D" is no part of a date pattern/);
    expect(datePatternProblem('MM/yyyy')).toBe(
      'a date pattern needs yyyy, MM and dd; dd missing (e.g. dd.MM.yyyy)',
    );
  });
});
