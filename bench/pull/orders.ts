import type { Variant } from '../../src/contract/index.js';
import { generateSeed } from '../../src/simulator/seed/index.js';

const DAY_MS = 86_400_000;
/** Distinct seed orders the stream cycles through; enough to vary statuses, lines and sizes. */
const TEMPLATE_COUNT = 1_000;

export interface OrderSource {
  /** The `index`-th single order of the list, as JSON text. */
  orderAt(index: number): string;
}

/**
 * Realistic single orders made on demand: the simulator's seed orders (valid against the
 * contract, every status, one to several lines) taken as templates, each copy with its own
 * `_id` and a `timestamp` that rises along the list as the platform sorts it. Only the
 * templates are held, never the list.
 */
export function singleOrderSource(variant: Variant, count: number, now: Date): OrderSource {
  const templates: Record<string, unknown>[] = [];
  const seed = generateSeed({
    seed: 7,
    variant,
    now,
    sizes: { singleOrders: TEMPLATE_COUNT, integratedCares: 200, patients: 100, articles: 300 },
  });
  for (const { resource, record } of seed) {
    if (resource === 'singleOrder') templates.push(record);
  }
  if (templates.length === 0) throw new Error(`variant ${variant} has no single orders to serve`);
  const first = now.getTime() - 30 * DAY_MS;
  const step = Math.max(1, Math.floor((30 * DAY_MS) / Math.max(1, count)));
  return {
    orderAt(index) {
      const template = templates[index % templates.length] ?? {};
      const changed = new Date(first + index * step).toISOString();
      const _id = `6b1e0000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
      return JSON.stringify({ ...template, _id, timestamp: changed, updatedAt: changed });
    },
  };
}
