import type { Variant } from '../../../src/contract/index.js';
import { generateSeed, type SeedSizes } from '../../../src/simulator/seed/index.js';

export const NOW = new Date('2026-01-15T08:00:00.000Z');

export type SeedByResource = Map<string, Array<Record<string, unknown>>>;

/** A whole seed, grouped by resource, in generation order. */
export function seedOf(variant: Variant, seed = 1, sizes: Partial<SeedSizes> = {}): SeedByResource {
  const byResource: SeedByResource = new Map();
  for (const { resource, record } of generateSeed({ seed, variant, now: NOW, sizes })) {
    const list = byResource.get(resource) ?? [];
    list.push(record);
    byResource.set(resource, list);
  }
  return byResource;
}

export function recordsOf(seed: SeedByResource, resource: string): Array<Record<string, unknown>> {
  return seed.get(resource) ?? [];
}

/**
 * Every value at `path`, where `*` steps into each entry of an array: `lines.*.articleId`.
 * Absent values are left out.
 */
export function valuesAt(record: unknown, path: string): unknown[] {
  const [head, ...rest] = path.split('.');
  if (head === undefined || record === null || typeof record !== 'object') return [];
  if (head === '*') {
    if (!Array.isArray(record)) return [];
    return record.flatMap((item: unknown) =>
      rest.length ? valuesAt(item, rest.join('.')) : [item],
    );
  }
  const value = (record as Record<string, unknown>)[head];
  if (value === undefined) return [];
  return rest.length === 0 ? [value] : valuesAt(value, rest.join('.'));
}

export function idsOf(seed: SeedByResource, resource: string): Set<unknown> {
  return new Set(recordsOf(seed, resource).map((r) => r._id));
}
