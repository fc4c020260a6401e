import { describe, expect, it } from 'vitest';
import { generateSeed, type SeedRecord } from '../../../src/simulator/seed/index.js';
import { NOW } from '../../support/simulator/seedFixtures.js';

function take(records: Generator<SeedRecord>, until: (r: SeedRecord) => boolean): SeedRecord[] {
  const taken: SeedRecord[] = [];
  for (const record of records) {
    taken.push(record);
    if (until(record)) break;
  }
  return taken;
}

describe('generateSeed: streaming', () => {
  it('yields the first articles of a 100,000-article, 50,000-patient run at once', () => {
    const records = generateSeed({
      seed: 1,
      variant: 'B',
      now: NOW,
      sizes: { articles: 100_000, patients: 50_000 },
    });
    let articles = 0;
    const taken = take(records, (r) => r.resource === 'article' && ++articles === 100);
    expect(taken.filter((r) => r.resource === 'article')).toHaveLength(100);
    expect(taken.some((r) => r.resource === 'patient')).toBe(false);
  });

  it('is lazy: a run with a billion articles still gives its first ones', () => {
    // An eager generator would never get here; this one makes only what is taken.
    const records = generateSeed({
      seed: 1,
      variant: 'A',
      now: NOW,
      sizes: { articles: 1_000_000_000 },
    });
    const taken = take(records, (r) => r.resource === 'article');
    expect(taken.at(-1)?.record.customerNumber).toBe('A-100001');
    records.return(undefined);
  });

  it('generates 10,000 articles and 5,000 patients with their orders to the end', () => {
    const counts = new Map<string, number>();
    const sizes = {
      articles: 10_000,
      patients: 5_000,
      integratedCares: 5_000,
      singleOrders: 5_000,
    };
    for (const { resource } of generateSeed({ seed: 2, variant: 'B', now: NOW, sizes })) {
      counts.set(resource, (counts.get(resource) ?? 0) + 1);
    }
    expect(counts.get('article')).toBe(10_000);
    expect(counts.get('patient')).toBe(5_000);
    expect(counts.get('singleOrder')).toBe(5_000);
  });
});
