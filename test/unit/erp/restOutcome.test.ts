import { describe, expect, it } from 'vitest';
import {
  outcomeOfAnswer,
  outcomeOfFailure,
  type Attempt,
  type ErpAnswer,
} from '../../../src/erp/outbound/rest/index.js';

const NOW = new Date('2026-01-15T08:00:00.000Z');
const SECRET = 's3cr3t-erp-token';

const attempt: Attempt = {
  resource: 'singleOrder',
  id: 'order-17',
  version: '2026-01-15T07:59:00.000Z',
  label: 'POST http://erp.local/api/singleOrder',
  secrets: [SECRET],
  sentValues: [],
  targetPath: 'erp.rest.resources.singleOrder',
};

function answer(status: number, extra: Partial<ErpAnswer> = {}): ErpAnswer {
  return { status, retryAfter: undefined, date: undefined, body: '', ...extra };
}

describe('outcomeOfAnswer', () => {
  it.each([200, 201, 202, 204])('takes %i as delivered', (status) => {
    expect(outcomeOfAnswer(attempt, answer(status), NOW)).toEqual({ status: 'delivered' });
  });

  it.each([408, 429, 500, 502, 503, 504])(
    'retries %i, naming resource, id and status',
    (status) => {
      const outcome = outcomeOfAnswer(attempt, answer(status, { body: 'busy' }), NOW);
      expect(outcome.status).toBe('retry');
      expect(outcome.status === 'retry' && outcome.reason).toMatch(
        new RegExp(`singleOrder order-17 .*HTTP ${status} with busy`),
      );
    },
  );

  it.each([400, 401, 403, 404, 409, 422])('rejects %i with its status and body', (status) => {
    const body = '{"error":"deliveryAddress.city is required"}';
    const outcome = outcomeOfAnswer(attempt, answer(status, { body }), NOW);
    expect(outcome).toMatchObject({ status: 'rejected', httpStatus: status, body });
    expect(outcome.status === 'rejected' && outcome.reason).toContain(body);
  });

  it('rejects a redirect: the URL is wrong, sending again will not help', () => {
    const outcome = outcomeOfAnswer(attempt, answer(301), NOW);
    expect(outcome.status).toBe('rejected');
    expect(outcome.status === 'rejected' && outcome.reason).toContain('erp.rest.baseUrl');
  });

  it('points at the credentials on 401 and at the URL on 404', () => {
    const unauthorised = outcomeOfAnswer(attempt, answer(401), NOW);
    const missing = outcomeOfAnswer(attempt, answer(404), NOW);
    expect(unauthorised.status === 'rejected' && unauthorised.reason).toContain('erp.rest.auth');
    expect(missing.status === 'rejected' && missing.reason).toContain(
      'erp.rest.resources.singleOrder',
    );
  });

  it('reads Retry-After in seconds', () => {
    const outcome = outcomeOfAnswer(attempt, answer(429, { retryAfter: '7' }), NOW);
    expect(outcome).toMatchObject({ status: 'retry', retryAfterMs: 7_000 });
  });

  it("reads a Retry-After date against the ERP's own Date header", () => {
    const erpAnswer = answer(503, {
      retryAfter: 'Thu, 15 Jan 2026 09:00:30 GMT',
      date: 'Thu, 15 Jan 2026 09:00:00 GMT',
    });
    expect(outcomeOfAnswer(attempt, erpAnswer, NOW)).toMatchObject({ retryAfterMs: 30_000 });
  });

  it('reads a Retry-After date against our clock when the ERP sends no Date', () => {
    const erpAnswer = answer(429, { retryAfter: 'Thu, 15 Jan 2026 08:01:00 GMT' });
    expect(outcomeOfAnswer(attempt, erpAnswer, NOW)).toMatchObject({ retryAfterMs: 60_000 });
  });

  it('ignores a Retry-After it cannot read instead of guessing', () => {
    const outcome = outcomeOfAnswer(attempt, answer(429, { retryAfter: 'soon' }), NOW);
    expect(outcome.status).toBe('retry');
    expect(outcome).not.toHaveProperty('retryAfterMs');
  });

  it('keeps the excerpt in the reason to 500 characters', () => {
    const body = `${'x'.repeat(500)}TAIL`;
    const outcome = outcomeOfAnswer(attempt, answer(503, { body }), NOW);
    const reason = outcome.status === 'retry' ? outcome.reason : '';
    expect(reason).toContain('x'.repeat(500));
    expect(reason).not.toContain('TAIL');
  });

  it('says so when the ERP answered an empty body', () => {
    const outcome = outcomeOfAnswer(attempt, answer(500), NOW);
    expect(outcome.status === 'retry' && outcome.reason).toContain('an empty body');
  });

  it('hides a credential the ERP echoes, in the reason and in the body', () => {
    const body = `{"error":"bad token","got":"Bearer ${SECRET}"}`;
    const rejected = outcomeOfAnswer(attempt, answer(401, { body }), NOW);
    const retried = outcomeOfAnswer(attempt, answer(500, { body }), NOW);
    expect(JSON.stringify([rejected, retried])).not.toContain(SECRET);
    expect(rejected.status === 'rejected' && rejected.body).toContain('Bearer ***');
  });
});

describe('outcomeOfFailure', () => {
  const failure = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

  it('retries a time-out and names the setting', () => {
    const outcome = outcomeOfFailure(attempt, failure('UND_ERR_HEADERS_TIMEOUT'), 30_000);
    expect(outcome.status).toBe('retry');
    expect(outcome.status === 'retry' && outcome.reason).toMatch(
      /singleOrder order-17 .*UND_ERR_HEADERS_TIMEOUT.*30000 ms \(erp\.rest\.timeoutMs\)/,
    );
  });

  it('retries a refused connection, reported as an AggregateError', () => {
    const refused = new AggregateError([failure('ECONNREFUSED')], 'connect failed');
    const outcome = outcomeOfFailure(attempt, refused, 30_000);
    expect(outcome.status === 'retry' && outcome.reason).toContain('ECONNREFUSED');
  });

  it('retries a reset socket, naming the cause undici wraps', () => {
    const socket = Object.assign(new Error('other side closed'), {
      code: 'UND_ERR_SOCKET',
      cause: failure('ECONNRESET'),
    });
    const outcome = outcomeOfFailure(attempt, socket, 30_000);
    expect(outcome.status === 'retry' && outcome.reason).toContain('ECONNRESET');
  });

  it('rejects a request undici cannot build: it would fail the same way forever', () => {
    const outcome = outcomeOfFailure(attempt, failure('UND_ERR_INVALID_ARG'), 30_000);
    expect(outcome.status).toBe('rejected');
  });

  it('hides a credential in the error message', () => {
    const outcome = outcomeOfFailure(attempt, failure('ECONNRESET', `with ${SECRET}`), 30_000);
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
  });
});
