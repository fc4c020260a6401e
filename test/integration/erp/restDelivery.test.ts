import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NOT_SENT_REASON } from '../../../src/erp/outbound/rest/index.js';
import { createLogger } from '../../../src/log/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { failWith503, repeatFault } from '../../support/fakeErp.js';
import { fakeErp, order, restAdapter } from '../../support/erp/restHarness.js';

const reasonOf = (outcome: unknown): string =>
  (outcome as { reason?: string } | undefined)?.reason ?? '';

describe('REST adapter: an ERP that fails', () => {
  it('retries through an outage and leaves exactly one record per key in the ERP', async () => {
    const erp = await fakeErp();
    erp.script(...failWith503(2));
    const adapter = restAdapter({ baseUrl: erp.url });
    const batch = [order('o-1'), order('o-2')];

    const first = await adapter.deliver(batch, 1);
    const second = await adapter.deliver(batch, 1);
    const third = await adapter.deliver(batch, 1);

    expect(first[0]).toMatchObject({ status: 'retry' });
    expect(reasonOf(first[0])).toMatch(/singleOrder o-1 .*HTTP 503 with \{"error":"maintenance"\}/);
    expect(second.map((o) => o.status)).toEqual(['retry', 'retry']);
    expect(third).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
    expect([...erp.stored.keys()]).toEqual([
      'singleOrder:o-1:2026-01-15T07:00:00.000Z',
      'singleOrder:o-2:2026-01-15T07:00:00.000Z',
    ]);
  });

  it('sends again when the answer is lost after the ERP stored the record, without doubling it', async () => {
    const erp = await fakeErp();
    erp.script({ kind: 'storeThenReset' });
    const adapter = restAdapter({ baseUrl: erp.url });

    const first = await adapter.deliver([order('o-1')], 1);
    const second = await adapter.deliver([order('o-1')], 1);

    expect(first[0]?.status).toBe('retry');
    expect(second).toEqual([{ status: 'delivered' }]);
    expect(erp.requests).toHaveLength(2);
    expect(erp.stored.size).toBe(1);
  });

  it('retries a connection reset before the ERP took anything', async () => {
    const erp = await fakeErp();
    erp.script({ kind: 'reset' });
    const adapter = restAdapter({ baseUrl: erp.url });

    const outcomes = await adapter.deliver([order('o-1')], 1);

    expect(outcomes[0]?.status).toBe('retry');
    expect(reasonOf(outcomes[0])).toMatch(/singleOrder o-1 .*failed \(/);
    expect(erp.stored.size).toBe(0);
  });

  it('rejects a 422 with its body and goes on with the rest of the batch', async () => {
    const erp = await fakeErp();
    const problem = { errors: [{ field: 'deliveryAddress.city', message: 'required' }] };
    erp.script({ kind: 'status', status: 422, body: problem });
    const adapter = restAdapter({ baseUrl: erp.url });

    const outcomes = await adapter.deliver([order('o-1'), order('o-2')], 1);

    expect(outcomes[0]).toMatchObject({
      status: 'rejected',
      httpStatus: 422,
      body: JSON.stringify(problem),
    });
    expect(reasonOf(outcomes[0])).toContain('deliveryAddress.city');
    expect(outcomes[1]).toEqual({ status: 'delivered' });
    expect([...erp.stored.keys()]).toEqual(['singleOrder:o-2:2026-01-15T07:00:00.000Z']);
  });

  it('stops the batch at the first retry, so later records never overtake it', async () => {
    const erp = await fakeErp();
    const adapter = restAdapter({ baseUrl: erp.url });
    const batch = [order('o-1'), order('o-2', 'v1'), order('o-2', 'v2'), order('o-3')];
    erp.script(...repeatFault(1, { kind: 'status', status: 200, body: {} }));
    erp.script(...failWith503(1));

    const outcomes = await adapter.deliver(batch, 1);

    expect(outcomes.map((o) => o.status)).toEqual(['delivered', 'retry', 'retry', 'retry']);
    expect(reasonOf(outcomes[2])).toBe(NOT_SENT_REASON);
    expect(reasonOf(outcomes[3])).toBe(NOT_SENT_REASON);
    expect(erp.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      'singleOrder:o-1:2026-01-15T07:00:00.000Z',
      'singleOrder:o-2:v1',
    ]);
  });

  it('honours Retry-After on a 429, for the throttled record and those held behind it', async () => {
    const erp = await fakeErp();
    erp.script({ kind: 'status', status: 429, headers: { 'retry-after': '12' } });
    const adapter = restAdapter({ baseUrl: erp.url });

    const outcomes = await adapter.deliver([order('o-1'), order('o-2')], 1);

    expect(outcomes).toEqual([
      expect.objectContaining({ status: 'retry', retryAfterMs: 12_000 }),
      { status: 'retry', reason: NOT_SENT_REASON, retryAfterMs: 12_000 },
    ]);
  });

  it('reads a Retry-After date against the ERP clock, not a wrong local one', async () => {
    const erp = await fakeErp();
    const retryAt = new Date(Date.UTC(2030, 0, 1, 12, 0, 30)).toUTCString();
    erp.script({
      kind: 'status',
      status: 503,
      headers: { 'retry-after': retryAt, date: new Date(Date.UTC(2030, 0, 1, 12)).toUTCString() },
    });
    const adapter = restAdapter({ baseUrl: erp.url }, { clock: new FakeClock('2001-01-01') });

    const outcomes = await adapter.deliver([order('o-1')], 1);

    expect(outcomes[0]).toMatchObject({ status: 'retry', retryAfterMs: 30_000 });
  });

  it('gives up on an ERP that does not answer within timeoutMs and retries later', async () => {
    const erp = await fakeErp();
    erp.script({ kind: 'stall' });
    const adapter = restAdapter({ baseUrl: erp.url, timeoutMs: 300 });

    const outcomes = await adapter.deliver([order('o-1'), order('o-2')], 1);

    expect(outcomes.map((o) => o.status)).toEqual(['retry', 'retry']);
    expect(reasonOf(outcomes[0])).toMatch(/HEADERS_TIMEOUT.*300 ms \(erp\.rest\.timeoutMs\)/);
    expect(erp.requests).toHaveLength(1);
  });

  it('rejects a record whose id cannot travel in a header, without sending it', async () => {
    const erp = await fakeErp();
    const adapter = restAdapter({ baseUrl: erp.url });

    const outcomes = await adapter.deliver([order('o-1\r\nX-Evil: 1'), order('o-2')], 1);

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'delivered']);
    expect(erp.requests).toHaveLength(1);
  });

  it('retries when nothing listens at the ERP address', async () => {
    const erp = await fakeErp();
    const url = erp.url;
    await erp.close();
    const adapter = restAdapter({ baseUrl: url });

    const outcomes = await adapter.deliver([order('o-1')], 1);

    expect(reasonOf(outcomes[0])).toMatch(/ECONNREFUSED.*check erp\.rest\.baseUrl/);
  });
});

describe('REST adapter: credentials stay secret', () => {
  const token = 'tk_live_7f3a9c';
  const password = 'Pw-4711-geheim';

  function capture(): { lines: string[]; stream: Writable } {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    return { lines, stream };
  }

  it.each([
    ['bearer', { type: 'bearer', token } as const],
    ['basic', { type: 'basic', username: 'sync', password } as const],
    ['header', { type: 'header', header: 'X-Erp-Key', value: token } as const],
  ])('never puts the %s credential in a reason or a log line', async (_name, auth) => {
    const erp = await fakeErp();
    const echo = (status: number) => ({
      kind: 'status' as const,
      status,
      body: {
        youSent: token,
        orThis: password,
        basic: Buffer.from(`sync:${password}`).toString('base64'),
      },
    });
    erp.script(echo(401), echo(503), { kind: 'reset' });
    const { lines, stream } = capture();
    // No configured secrets: the adapter itself must keep them out.
    const logger = createLogger({ level: 'debug', destination: stream });
    const adapter = restAdapter({ baseUrl: erp.url, auth }, { logger });

    const outcomes = [
      ...(await adapter.deliver([order('o-1')], 1)),
      ...(await adapter.deliver([order('o-2')], 1)),
      ...(await adapter.deliver([order('o-3')], 1)),
    ];

    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'retry', 'retry']);
    const written = JSON.stringify(outcomes) + lines.join('');
    expect(lines).toHaveLength(3);
    expect(written).toContain('youSent');
    expect(written).not.toContain(auth.type === 'basic' ? password : token);
    if (auth.type === 'basic') {
      expect(written).not.toContain(Buffer.from(`sync:${password}`).toString('base64'));
    }
  });
});

describe('REST adapter: personal data in an ERP answer', () => {
  it('removes the values of the record it sent from a plain-text answer, in the reason, the body and the log', async () => {
    const erp = await fakeErp();
    const sent = order('o-1');
    sent.record = {
      ...sent.record,
      deliveryAddress: {
        name: 'Erika Mustermann',
        address: 'Heidestraße 17',
        postalCode: '51147',
        city: 'Köln',
      },
    };
    const text =
      'Lieferadresse abgelehnt: Erika Mustermann, Heidestraße 17, 51147 Köln ist für Kunde K-1001 nicht hinterlegt';
    erp.script({ kind: 'status', status: 422, body: text });
    const lines: string[] = [];
    const logger = createLogger({
      level: 'debug',
      destination: { write: (line: string) => void lines.push(line) },
    });
    const adapter = restAdapter({ baseUrl: erp.url }, { logger });

    const [outcome] = await adapter.deliver([sent], 1);

    const written = JSON.stringify(outcome) + lines.join('');
    for (const value of ['Erika', 'Mustermann', 'Heidestraße', '51147', 'Köln', 'K-1001']) {
      expect(written, `"${value}" is left`).not.toContain(value);
    }
    expect(reasonOf(outcome)).toContain('Lieferadresse abgelehnt: [redacted], [redacted], ');
    expect(reasonOf(outcome)).toContain('singleOrder o-1');
  });
});
