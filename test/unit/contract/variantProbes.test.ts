import { describe, expect, it } from 'vitest';
import {
  contractFor,
  RESOURCES,
  VARIANTS,
  variantProbes,
  type ProbeAnswer,
  type Variant,
} from '../../../src/contract/index.js';
import { Router } from '../../../src/simulator/routing.js';

const AT = new Date('2026-03-01T08:00:00.000Z');

/** What the simulator's router (read from the same contract) answers a GET of `path`. */
function simulatorAnswer(variant: Variant, path: string): ProbeAnswer {
  const pathname = new URL(path, 'http://platform').pathname;
  const match = new Router(contractFor(variant)).match('GET', pathname);
  if (match.kind === 'methodNotAllowed') return 'notAllowed';
  if (match.kind === 'notFound') return 'notFound';
  // An item read of an id no record has is a 404 as well.
  return match.operation.target === 'item' ? 'notFound' : 'served';
}

describe('the probes that tell the variants apart', () => {
  const probes = variantProbes(AT);

  it('give each variant answers no other variant gives', () => {
    const signatures = VARIANTS.map((v) => probes.map((p) => p.expected[v]).join(','));
    expect(new Set(signatures).size).toBe(VARIANTS.length);
  });

  it('leave out paths every variant answers alike', () => {
    for (const probe of probes) {
      expect(new Set(VARIANTS.map((v) => probe.expected[v])).size, probe.path).toBeGreaterThan(1);
    }
    expect(probes.map((p) => p.path.split('?')[0])).not.toContain('/singleOrder');
  });

  it('are answered by the simulator of each variant as the contract expects', () => {
    for (const variant of VARIANTS) {
      for (const probe of probes) {
        expect(simulatorAnswer(variant, probe.path), `${variant} GET ${probe.path}`).toBe(
          probe.expected[variant],
        );
      }
    }
  });

  it('name only paths of the contract, each with a query its lists accept', () => {
    const known = Object.values(RESOURCES).map((r) => r.path);
    let lists = 0;
    for (const probe of probes) {
      const url = new URL(probe.path, 'http://platform');
      expect(
        known.some((path) => url.pathname === path || url.pathname.startsWith(`${path}/`)),
        probe.path,
      ).toBe(true);
      for (const variant of VARIANTS) {
        const list = contractFor(variant).operations.find(
          (o) => o.kind === 'list' && o.pathTemplate === url.pathname,
        );
        if (list === undefined) continue;
        lists += 1;
        const query = Object.fromEntries(url.searchParams);
        for (const name of list.detail.query.required ?? []) expect(query).toHaveProperty(name);
      }
    }
    // Some probe is a list of some variant: the queries above were checked at all.
    expect(lists).toBeGreaterThan(0);
  });

  it('keep lists short: every time parameter they send is the moment given', () => {
    const withTime = probes.filter((p) => p.path.includes('updatedAfter='));
    expect(withTime.length).toBeGreaterThan(0);
    for (const probe of withTime) {
      expect(new URL(probe.path, 'http://platform').searchParams.get('updatedAfter')).toBe(
        AT.toISOString(),
      );
    }
  });

  it('cover the differences of the methods table: erpOrder list, productGroup, patientHistory, device by id', () => {
    const paths = probes.map((p) => p.path.split('?')[0]);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/erpOrder',
        '/productGroup',
        '/patientHistory',
        '/contractArticleGroup',
        '/patient/customerMapping',
      ]),
    );
    expect(paths.some((p) => p?.startsWith('/device/'))).toBe(true);
    expect(paths.some((p) => p?.startsWith('/integratedCare/'))).toBe(true);
  });
});
