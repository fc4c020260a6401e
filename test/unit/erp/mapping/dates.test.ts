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

  it('refuses a local time the clock repeats or skips, unless clockChange says which instant', () => {
    const pattern = 'dd.MM.yyyy HH:mm';
    // Berlin sets the clock back at 03:00 CEST on 25 October 2026: 02:30 comes twice.
    expect(parseDate('25.10.2026 02:30', pattern, BERLIN)).toEqual({
      problem:
        '"25.10.2026 02:30" is there twice in Europe/Berlin (the clock is set back that night): set clockChange: earlier or later on the field to say which instant it is, or have the ERP write the offset or UTC',
    });
    expect(parseDate('25.10.2026 02:30', pattern, BERLIN, 'earlier')).toEqual({
      value: '2026-10-25T00:30:00.000Z',
    });
    expect(parseDate('25.10.2026 02:30', pattern, BERLIN, 'later')).toEqual({
      value: '2026-10-25T01:30:00.000Z',
    });
    // It skips 02:00 to 03:00 on 29 March 2026.
    expect(parseDate('29.03.2026 02:30', pattern, BERLIN)).toEqual({
      problem:
        '"29.03.2026 02:30" does not exist in Europe/Berlin (the clock skips that hour): set clockChange: earlier or later on the field to say which instant it is, or have the ERP write the offset or UTC',
    });
    expect(parseDate('29.03.2026 02:30', pattern, BERLIN, 'earlier')).toEqual({
      value: '2026-03-29T00:30:00.000Z',
    });
    expect(parseDate('29.03.2026 02:30', pattern, BERLIN, 'later')).toEqual({
      value: '2026-03-29T01:30:00.000Z',
    });
    // The hours beside the change are one instant each, whatever clockChange says.
    for (const clockChange of [undefined, 'earlier', 'later'] as const) {
      expect(parseDate('25.10.2026 03:30', pattern, BERLIN, clockChange)).toEqual({
        value: '2026-10-25T02:30:00.000Z',
      });
      expect(parseDate('29.03.2026 03:30', pattern, BERLIN, clockChange)).toEqual({
        value: '2026-03-29T01:30:00.000Z',
      });
    }
    expect(parseDate('25.10.2026 02:30', pattern, 'UTC')).toEqual({
      value: '2026-10-25T02:30:00.000Z',
    });
  });

  it('refuses a four-digit year before 1900 instead of reading 0026 as 1926', () => {
    expect(parseDate('01.01.0026', 'dd.MM.yyyy', BERLIN)).toEqual({
      problem: '"01.01.0026": the year 0026 is before 1900; check the date the ERP wrote',
    });
    expect(parseDate('01.01.1899 10:00', 'dd.MM.yyyy HH:mm', BERLIN)).toEqual({
      problem: '"01.01.1899 10:00": the year 1899 is before 1900; check the date the ERP wrote',
    });
    expect(parseDate('01.01.1900', 'dd.MM.yyyy', BERLIN)).toEqual({ value: '1900-01-01' });
  });
});
