import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';
import { outageKindOf, platformFailures } from '../../../src/platform/failures.js';
import { PermanentError, TransientError } from '../../../src/shared/errors.js';

type Line = Record<string, unknown> & { level: string; msg: string };

function harness() {
  const lines: Line[] = [];
  const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
  let now = Date.parse('2026-03-01T08:00:00.000Z');
  const failures = platformFailures(createLogger({ level: 'debug', destination }), () => now);
  return { lines, failures, at: () => now, advance: (ms: number) => (now += ms) };
}

const http = (status: number, sentAt?: number) =>
  new TransientError(`GET /article (article) answered HTTP ${status}`, {
    code: `HTTP_${status}`,
    status,
    ...(sentAt === undefined ? {} : { sentAt }),
  });
const network = (code: string) =>
  new TransientError(`GET /article (article) failed (${code})`, {
    code: 'NETWORK',
    cause: Object.assign(new Error(code), { code }),
  });

describe('the kind of a platform outage', () => {
  it('names 5xx by status, a time-out, a reset and a breaker by what opened it', () => {
    expect(outageKindOf(http(500))).toBe('HTTP 500');
    expect(outageKindOf(http(503))).toBe('HTTP 503');
    expect(outageKindOf(network('UND_ERR_HEADERS_TIMEOUT'))).toBe('time-out');
    expect(outageKindOf(network('UND_ERR_BODY_TIMEOUT'))).toBe('time-out');
    expect(outageKindOf(network('ECONNRESET'))).toBe('reset');
    expect(outageKindOf(new TransientError('cut', { code: 'TRUNCATED_BODY' }))).toBe('reset');
    const refusal = new TransientError('not sent', { code: 'RESOURCE_FAILING', cause: http(502) });
    expect(outageKindOf(refusal)).toBe('HTTP 502');
  });

  it('is none for no connection at all (the breaker outage), a refusal, or a state watched elsewhere', () => {
    expect(outageKindOf(new TransientError('refused', { code: 'UNREACHABLE' }))).toBeUndefined();
    expect(outageKindOf(new PermanentError('404', { code: 'HTTP_404', status: 404 }))).toBe(
      undefined,
    );
    const watched = new TransientError('full', { code: 'STORE_FULL', watched: true });
    expect(outageKindOf(watched)).toBeUndefined();
  });
});

describe('platform failures as one state per kind', () => {
  it('lists and jobs failing alike are one warning, and one info line once the last passed', () => {
    const h = harness();
    expect(h.failures.failed('pull article', http(500), {})).toBe(true);
    expect(h.failures.failed('ack.singleOrder singleOrder:1', http(500), {})).toBe(true);
    expect(h.failures.failed('pull patient', http(500), {})).toBe(true);
    h.failures.passed('pull article');
    h.failures.passed('ack.singleOrder singleOrder:1');
    expect(h.lines.map((l) => l.level)).toEqual(['warn']);
    h.failures.passed('pull patient');
    expect(h.lines.map((l) => [l.level, l['outage']])).toEqual([
      ['warn', 'HTTP 500'],
      ['info', 'HTTP 500'],
    ]);
    expect(h.lines[1]?.msg).toMatch(/^platform requests go through again \(failing with HTTP 500/);
  });

  it('a failure of a request sent before the state ended is its tail, not a new outage', () => {
    const h = harness();
    const sentDuring = h.at();
    h.failures.failed('pull article', http(500, sentDuring), {});
    h.advance(1_000);
    h.failures.passed('pull article');
    h.advance(1_000);
    const tail = new TransientError('not sent', {
      code: 'RESOURCE_FAILING',
      cause: http(500, sentDuring),
    });
    expect(h.failures.failed('pull patient', tail, {})).toBe(true);
    expect(h.lines.map((l) => l.level)).toEqual(['warn', 'info']);
    // One sent after the end is news again.
    h.failures.failed('pull patient', http(500, h.at()), {});
    expect(h.lines.map((l) => l.level)).toEqual(['warn', 'info', 'warn']);
  });

  it('leaves other failures to their callers', () => {
    const h = harness();
    const unreachable = new TransientError('refused', { code: 'UNREACHABLE' });
    expect(h.failures.failed('pull article', unreachable, {})).toBe(false);
    expect(h.lines).toEqual([]);
  });
});
