import type { PeerCertificate } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { clockOutcome } from '../../../src/check/clock.js';
import { certificateOutcome } from '../../../src/check/reach.js';
import { probeAnswerOf, variantOutcome, type ProbeResult } from '../../../src/check/variant.js';
import { variantProbes, type Variant } from '../../../src/contract/index.js';

describe('platform.clock', () => {
  it('passes within 5 s, warns above, fails beyond the overlap (and the header resolution)', () => {
    expect(clockOutcome(4_900, 120).status).toBe('pass');
    expect(clockOutcome(-5_100, 120)).toMatchObject({
      status: 'warn',
      message: "the platform's clock is 5.1 s behind this machine's",
    });
    expect(clockOutcome(121_000, 120).status).toBe('warn');
    const beyond = clockOutcome(121_100, 120);
    expect(beyond.status).toBe('fail');
    expect(beyond.message).toBe(
      "the platform's clock is 121.1 s ahead of this machine's: more than sync.overlapSeconds (120 s)",
    );
    expect(beyond.hint).toContain('NTP');
  });

  it('with no overlap, fails beyond the one second the Date header can tell', () => {
    expect(clockOutcome(900, 0).status).toBe('pass');
    expect(clockOutcome(1_100, 0).status).toBe('fail');
  });
});

describe('platform.tls: the certificate', () => {
  const certificate = (validTo: string) =>
    ({
      valid_to: validTo,
      subject: { CN: 'api.platform.example' },
      issuer: { O: 'Example CA' },
    }) as unknown as PeerCertificate;
  const now = new Date('2026-03-01T08:00:00.000Z');

  it('passes with weeks left, warns within 14 days, fails once expired', () => {
    expect(certificateOutcome(certificate('Apr 30 08:00:00 2026 GMT'), now)).toMatchObject({
      status: 'pass',
      message:
        'the certificate of api.platform.example (issued by Example CA) is trusted, valid until 2026-04-30T08:00:00.000Z (60 days)',
    });
    expect(certificateOutcome(certificate('Mar 10 08:00:00 2026 GMT'), now)).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('expires in 9 days') as string,
    });
    expect(certificateOutcome(certificate('Feb 28 08:00:00 2026 GMT'), now).status).toBe('fail');
  });
});

describe('platform.variant: the probes against platform.variant', () => {
  const probes = variantProbes(new Date('2026-03-01T08:00:00.000Z'));
  const STATUS = { served: 200, notAllowed: 405, notFound: 404 } as const;
  const answersOf = (variant: Variant): ProbeResult[] =>
    probes.map((probe) => {
      const status = STATUS[probe.expected[variant]];
      return { probe, status, answer: probeAnswerOf(status) };
    });

  it('reads 404 and 405 as HTTP means them, and a 403 or 400 as a path that takes GET', () => {
    expect(probeAnswerOf(404)).toBe('notFound');
    expect(probeAnswerOf(405)).toBe('notAllowed');
    expect(probeAnswerOf(403)).toBe('served');
    expect(probeAnswerOf(400)).toBe('served');
    expect(probeAnswerOf(401)).toBeUndefined();
    expect(probeAnswerOf(503)).toBeUndefined();
  });

  it('passes when the answers fit the configured variant alone', () => {
    expect(variantOutcome(answersOf('C'), 'C')).toMatchObject({ status: 'pass' });
  });

  it('fails naming the variant they fit, with the first answer that differs', () => {
    const outcome = variantOutcome(answersOf('A'), 'C');
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toMatch(
      /^the platform behaves as variant A, platform.variant says C: GET \/\S+ answered HTTP \d+, variant C /,
    );
    expect(outcome.hint).toBe('set platform.variant: A');
  });

  it('warns when the answers fit several variants (some did not answer), or none', () => {
    // Only the ERP order list answered: B and C both have it.
    const partial = answersOf('B').map((r) =>
      r.probe.path.startsWith('/erpOrder?') ? r : { ...r, status: 503, answer: undefined },
    );
    expect(variantOutcome(partial, 'B')).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('the answers fit variants B and C') as string,
    });
    const none = answersOf('B').map((r) => ({ ...r, status: 'ECONNRESET', answer: undefined }));
    expect(variantOutcome(none, 'B')).toMatchObject({ status: 'warn' });
    const odd = answersOf('B').map((r, i) =>
      i === 0 ? { ...r, status: 405, answer: 'notAllowed' as const } : r,
    );
    expect(variantOutcome(odd, 'B')).toMatchObject({
      status: 'warn',
      message: expect.stringContaining('closest is B, as configured') as string,
    });
  });
});
