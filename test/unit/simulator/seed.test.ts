import { describe, expect, it } from 'vitest';
import {
  checkRecord,
  contractFor,
  entitySchema,
  VARIANTS,
  type ResourceName,
} from '../../../src/contract/index.js';
import {
  DEFAULT_SEED_SIZES,
  generateSeed,
  type SeedRecord,
} from '../../../src/simulator/seed/index.js';
import { SetupError } from '../../../src/shared/errors.js';
import { NOW, recordsOf, seedOf } from '../../support/simulator/seedFixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('generateSeed: determinism', () => {
  it('gives deep-equal output for the same seed, variant and now', () => {
    const first = [...generateSeed({ seed: 7, variant: 'B', now: NOW })];
    const second = [...generateSeed({ seed: 7, variant: 'B', now: NOW })];
    expect(first.length).toBeGreaterThan(100);
    expect(second).toEqual(first);
  });

  it('gives different data for a different seed', () => {
    const first = [...generateSeed({ seed: 7, variant: 'B', now: NOW })];
    const other = [...generateSeed({ seed: 8, variant: 'B', now: NOW })];
    expect(other.map((r) => r.record._id)).not.toEqual(first.map((r) => r.record._id));
  });

  it('derives every time from `now`: a day later shifts the times and keeps the ids', () => {
    const later = new Date(NOW.getTime() + DAY_MS);
    const first = [...generateSeed({ seed: 3, variant: 'A', now: NOW })];
    const shifted = [...generateSeed({ seed: 3, variant: 'A', now: later })];
    expect(shifted.map((r) => r.record._id)).toEqual(first.map((r) => r.record._id));
    const withTimestamp = first.filter((r) => typeof r.record.timestamp === 'string');
    expect(withTimestamp.length).toBeGreaterThan(100);
    for (const [i, entry] of first.entries()) {
      if (typeof entry.record.timestamp !== 'string') continue;
      const moved = Date.parse(String(shifted[i]?.record.timestamp));
      expect(moved - Date.parse(entry.record.timestamp)).toBe(DAY_MS);
    }
  });
});

describe('generateSeed: per variant', () => {
  const emitted = (variant: 'A' | 'B' | 'C') => new Set(seedOf(variant).keys());

  it('makes only resources the variant offers, each with the default count', () => {
    for (const variant of VARIANTS) {
      const offered = new Set(contractFor(variant).operations.map((o) => o.resource));
      const seed = seedOf(variant);
      for (const resource of seed.keys()) expect(offered.has(resource as ResourceName)).toBe(true);
      expect(recordsOf(seed, 'article')).toHaveLength(DEFAULT_SEED_SIZES.articles);
      expect(recordsOf(seed, 'patient')).toHaveLength(DEFAULT_SEED_SIZES.patients);
      expect(seed.has('patientCustomerMapping')).toBe(false);
    }
  });

  it('A has contract article groups, insurance contracts and history, no product groups', () => {
    const a = emitted('A');
    expect(a.has('contractArticleGroup')).toBe(true);
    expect(a.has('insuranceContract')).toBe(true);
    expect(a.has('patientHistory')).toBe(true);
    expect(a.has('productGroup')).toBe(false);
  });

  it('B has product groups and history, no contracts; its articles name product groups', () => {
    const b = seedOf('B');
    expect(b.has('productGroup')).toBe(true);
    expect(b.has('patientHistory')).toBe(true);
    expect(b.has('contractArticleGroup')).toBe(false);
    expect(b.has('insuranceContract')).toBe(false);
    expect(recordsOf(b, 'article').every((a) => typeof a.productGroupId === 'string')).toBe(true);
    expect(recordsOf(seedOf('A'), 'article').some((a) => 'productGroupId' in a)).toBe(false);
  });

  it('C has neither contracts nor product groups nor patient history', () => {
    const c = emitted('C');
    for (const resource of ['contractArticleGroup', 'insuranceContract', 'productGroup']) {
      expect(c.has(resource)).toBe(false);
    }
    expect(c.has('patientHistory')).toBe(false);
    expect(c.has('erpOrder')).toBe(true);
  });

  it('comes in dependency order: parents before the records that name them', () => {
    const order = [...new Set(seedOf('A').keys())];
    const before = (a: string, b: string) =>
      expect(order.indexOf(a)).toBeLessThan(order.indexOf(b));
    before('region', 'users');
    before('postalCode', 'patient');
    before('article', 'contractArticleGroup');
    before('contractArticleGroup', 'insuranceContract');
    before('patient', 'integratedCare');
    before('integratedCare', 'singleOrder');
    before('singleOrder', 'erpOrder');
    before('document', 'attachment');
  });
});

describe('generateSeed: record shapes', () => {
  it('every record matches the contract schema and has an identity and version', () => {
    for (const variant of VARIANTS) {
      for (const { resource, record } of generateSeed({ seed: 5, variant, now: NOW })) {
        const check = checkRecord(resource, entitySchema(resource), record);
        expect(check.ok ? 'ok' : check.reason).toBe('ok');
      }
    }
  });

  it('keeps times within the 30 days before now, createdAt ≤ updatedAt = timestamp', () => {
    const from = NOW.getTime() - 30 * DAY_MS;
    const entries: SeedRecord[] = [...generateSeed({ seed: 9, variant: 'B', now: NOW })];
    const audited = entries.filter(({ record }) => {
      const audit = (record.metadata ?? record) as Record<string, unknown>;
      return typeof audit.updatedAt === 'string';
    });
    expect(audited.length).toBeGreaterThan(entries.length / 2);
    for (const { record } of audited) {
      const audit = (record.metadata ?? record) as Record<string, unknown>;
      const updated = Date.parse(String(audit.updatedAt));
      expect(updated).toBeGreaterThanOrEqual(from);
      expect(updated).toBeLessThanOrEqual(NOW.getTime());
      expect(Date.parse(String(audit.createdAt))).toBeLessThanOrEqual(updated);
      if ('timestamp' in record) expect(record.timestamp).toBe(audit.updatedAt);
    }
  });

  it('leaves audit fields off regions and makes a tree under one root', () => {
    const regions = recordsOf(seedOf('C'), 'region');
    expect(regions.some((r) => 'createdBy' in r || 'createdAt' in r)).toBe(false);
    const roots = regions.filter((r) => r.parent === undefined);
    expect(roots).toHaveLength(1);
    expect(regions.filter((r) => r.parent === roots[0]?._id).length).toBeGreaterThan(1);
  });

  it('gives attachments opaque non-UUID ids and documents a templateId', () => {
    const seed = seedOf('B');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const a of recordsOf(seed, 'attachment')) expect(String(a._id)).not.toMatch(uuid);
    for (const p of recordsOf(seed, 'patient')) expect(String(p._id)).toMatch(uuid);
    for (const d of recordsOf(seed, 'document')) expect(String(d.templateId)).toMatch(uuid);
  });
});

describe('generateSeed: sizes', () => {
  it('honours requested sizes', () => {
    const seed = seedOf('B', 1, { articles: 3, patients: 2, singleOrders: 0 });
    expect(recordsOf(seed, 'article')).toHaveLength(3);
    expect(recordsOf(seed, 'patient')).toHaveLength(2);
    expect(seed.has('singleOrder')).toBe(false);
  });

  it('refuses, at once and naming the sizes, children without parents', () => {
    const call = () => generateSeed({ seed: 1, variant: 'B', now: NOW, sizes: { patients: 0 } });
    expect(call).toThrow(SetupError);
    expect(call).toThrow(/sizes\.patientNotes is 20 but sizes\.patients is 0/);
    expect(() =>
      generateSeed({ seed: 1, variant: 'B', now: NOW, sizes: { articles: -1 } }),
    ).toThrow(/sizes\.articles must be a whole number/);
  });

  it('ignores sizes of resources the variant does not offer', () => {
    const seed = seedOf('C', 1, { productGroups: 50, patientHistory: 50 });
    expect(seed.has('productGroup')).toBe(false);
    expect(seed.has('patientHistory')).toBe(false);
  });

  it('refuses an invalid now', () => {
    expect(() => generateSeed({ seed: 1, variant: 'A', now: new Date('nope') })).toThrow(
      SetupError,
    );
  });
});
