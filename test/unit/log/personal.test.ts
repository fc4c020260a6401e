import { describe, expect, it } from 'vitest';
import { createLogger, maskAnswer, maskPersonal } from '../../../src/log/index.js';
import { PermanentError } from '../../../src/shared/errors.js';

/** As a platform answered a patient's write (issue 38): free text, no field names. */
const FLORA = 'note for Flora Kettenis (born 1946-08-30, Neißestr. 62a) refused';
const FLORA_VALUES = ['Flora', 'Kettenis', '1946-08-30', 'Neißestr'];
const ID = '3f8e2b1c-4d5a-4e6f-9a7b-8c9d0e1f2a3b';

const found = (text: string, values: readonly string[]) => values.filter((v) => text.includes(v));

function logged(write: (logger: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void lines.push(line) },
  });
  write(logger);
  return lines.join('');
}

describe('maskAnswer: the other side’s words about a record', () => {
  it('keeps a JSON answer’s field names, numbers and ids, and masks every other text', () => {
    const answer = JSON.stringify({
      error: 'validation',
      message: FLORA,
      status: 422,
      errors: [{ field: 'birthday', value: '1946-08-30', id: ID, retry: false, at: null }],
    });
    const masked = maskAnswer(answer);
    expect(found(masked, FLORA_VALUES)).toEqual([]);
    expect(JSON.parse(masked)).toEqual({
      error: '[redacted]',
      message: '[redacted]',
      status: 422,
      errors: [{ field: '[redacted]', value: '[redacted]', id: ID, retry: false, at: null }],
    });
  });

  it('masks an excerpt cut off inside a string, and plain text whole', () => {
    expect(maskAnswer(`{"_id":"${ID}","note":"${FLORA.slice(0, 20)}`)).toBe(
      `{"_id":"${ID}","note":"[redacted]"`,
    );
    expect(maskAnswer(FLORA)).toBe(`[redacted: ${FLORA.length} characters of text]`);
    expect(maskAnswer(JSON.stringify(FLORA))).toBe('"[redacted]"');
    expect(maskAnswer('')).toBe('');
  });
});

describe('maskPersonal: one masking for every output', () => {
  it('masks personal fields by key, answers by their structure, and known values in our texts', () => {
    const job = {
      id: 7,
      kind: 'patient',
      payload: { customerId: 'K-7', lastName: 'Kettenis', birthday: '1946-08-30', status: 1 },
      lastError: 'refused: Kettenis, born 1946-08-30',
      deadLetters: [{ reason: 'HTTP 422', bodyExcerpt: FLORA, httpStatus: 422 }],
    };
    const masked = maskPersonal(job, ['Kettenis', '1946-08-30']);
    expect(found(JSON.stringify(masked), FLORA_VALUES)).toEqual([]);
    expect(masked).toEqual({
      id: 7,
      kind: 'patient',
      payload: { customerId: 'K-7', lastName: '[redacted]', birthday: '[redacted]', status: 1 },
      lastError: 'refused: [redacted], born [redacted]',
      deadLetters: [
        {
          reason: 'HTTP 422',
          bodyExcerpt: `[redacted: ${FLORA.length} characters of text]`,
          httpStatus: 422,
        },
      ],
    });
  });
});

describe('free texts about a patient', () => {
  it('are masked as personal fields: delivery notes, health data', () => {
    const message = {
      customerId: 'K-10057',
      lastName: 'Meier',
      deliveryInformation: { startTime: '09:00', deliveryInformation: 'Klingel Meier/Schmitz' },
      payer: { payerId: ID, additionalInfo: 'Befreiung bis Juni' },
      history: [{ therapy: 'Kompressionstherapie', woundLocation: 'Unterschenkel links' }],
    };
    const masked = JSON.stringify(maskPersonal(message));
    for (const value of ['Meier', 'Schmitz', 'Befreiung', 'Kompression', 'Unterschenkel']) {
      expect(masked).not.toContain(value);
    }
    expect(masked).toContain('K-10057');
  });
});

describe('the log and the other side’s words', () => {
  it('logs no personal value of a platform error body (err.bodyExcerpt)', () => {
    const error = new PermanentError('PATCH /patient/{id} (patient p-1) answered HTTP 422', {
      resource: 'patient',
      id: 'p-1',
      status: 422,
      bodyExcerpt: FLORA,
    });
    const text = logged((logger) => {
      logger.error({ err: error }, 'job 7 patient dead');
      logger.warn({ answer: JSON.stringify({ message: FLORA, code: 'E_REFUSED' }) }, 'refused');
    });
    expect(found(text, FLORA_VALUES)).toEqual([]);
    const [first, second] = text.split('\n').map((line) => JSON.parse(line || '{}') as unknown);
    expect(first).toMatchObject({
      err: { status: 422, bodyExcerpt: `[redacted: ${FLORA.length} characters of text]` },
    });
    expect(second).toMatchObject({ answer: '{"message":"[redacted]","code":"[redacted]"}' });
  });
});
