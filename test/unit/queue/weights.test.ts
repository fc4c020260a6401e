import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { weightOf } from '../../../src/app/queueWeights.js';
import { queueSchema } from '../../../src/config/queueSchema.js';
import { PASS_CLAIM_LIMIT } from '../../../src/queue/claim.js';
import { takeTurns, weightedTurns } from '../../../src/queue/fairShare.js';
import { enqueue, type Handler } from '../../../src/queue/index.js';
import { transaction } from '../../../src/store/index.js';
import { queueHarness, type QueueHarness } from '../../support/queue/queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
/** A harness of its own for the second half of a test (the first is cleaned up now). */
async function fresh(): Promise<QueueHarness> {
  await h.cleanup();
  return queueHarness();
}
afterEach(async () => {
  await h.cleanup();
});

/** A first pull's backlog of article hand-overs, then a few orders queued behind it. */
function backlogThenOrders(articles: number, orders: number): void {
  transaction(h.store, () => {
    for (let n = 0; n < articles; n++) {
      enqueue(h.store, { kind: 'deliver.article', entityKey: `article:a-${n}`, payload: {} });
    }
    for (let n = 0; n < orders; n++) {
      const entityKey = `singleOrder:o-${n}`;
      enqueue(h.store, { kind: 'deliver.singleOrder', entityKey, payload: {} });
    }
  });
}

/**
 * Passes of a worker whose weights the config sets (one job a lane a pass), until `jobs` ran;
 * the kinds of the jobs it ran, in order.
 */
async function firstJobs(
  weights: Record<string, unknown> | undefined,
  jobs: number,
): Promise<string[]> {
  const ran: string[] = [];
  const record: Handler = (job) => Promise.resolve(void ran.push(job.kind));
  const config = queueSchema.parse(weights === undefined ? {} : { weights });
  const worker = h.worker(
    { 'deliver.article': record, 'deliver.singleOrder': record },
    { concurrency: 4, weightOf: weightOf(config.weights) },
  );
  while (ran.length < jobs) await worker.runOnce();
  return ran.slice(0, jobs);
}

const count = (kinds: readonly string[], kind: string) => kinds.filter((k) => k === kind).length;

describe('the queue serves its kinds by their weights (queue.weights)', () => {
  it('orders queued behind a backlog of 1,000 article hand-overs run first: the first pass takes them', async () => {
    backlogThenOrders(1_000, 3);
    // One unit a lane: the first pass (four lanes) takes all three orders, and one article.
    const ran = await firstJobs(undefined, 4);
    expect(count(ran, 'deliver.singleOrder')).toBe(3);
  });

  it('the weights in the config decide the shares: orders at least 2 to 1, or last', async () => {
    backlogThenOrders(200, 200);
    const byDefault = await firstJobs(undefined, 60);
    expect(count(byDefault, 'deliver.singleOrder')).toBeGreaterThanOrEqual(40);
    expect(count(byDefault, 'deliver.article')).toBeGreaterThanOrEqual(10);
    h = await fresh();
    backlogThenOrders(200, 200);
    const ordersLast = await firstJobs({ singleOrder: 1, article: 1_000 }, 60);
    expect(count(ordersLast, 'deliver.singleOrder')).toBeLessThanOrEqual(1);
  });

  it('equal weights share the passes half and half, and without weights the queue order holds', async () => {
    backlogThenOrders(200, 200);
    const equal = await firstJobs({ singleOrder: 1, article: 1 }, 40);
    expect(count(equal, 'deliver.singleOrder')).toBe(20);
    h = await fresh();
    backlogThenOrders(300, 10);
    const ran: string[] = [];
    const record: Handler = (job) => Promise.resolve(void ran.push(job.kind));
    const worker = h.worker({ 'deliver.article': record, 'deliver.singleOrder': record });
    await worker.runOnce();
    expect(ran.length).toBe(PASS_CLAIM_LIMIT);
    expect(count(ran, 'deliver.singleOrder')).toBe(0);
  });

  it('refuses an unknown key and a weight out of range, naming them', () => {
    const refused = queueSchema.safeParse({ weights: { singleOrdr: 3, article: 0 } });
    expect(refused.success).toBe(false);
    const messages = refused.error?.issues.map((issue) => issue.message).join('\n') ?? '';
    expect(messages).toContain('singleOrdr');
    expect(refused.error?.issues.some((issue) => issue.path.join('.') === 'weights.article')).toBe(
      true,
    );
  });

  it('turns by weight: the heavier kind first and more often, and a light one still gets its turn across passes of few turns', () => {
    const weights = weightOf(queueSchema.parse({}).weights);
    const turns = weightedTurns(weights);
    const order = takeTurns(
      new Map([
        ['deliver.article', ['a1', 'a2', 'a3']],
        ['deliver.singleOrder', ['o1', 'o2']],
      ]),
      turns,
      10,
    );
    expect(order[0]).toBe('o1');
    expect(order).toHaveLength(5);

    // Orders 8, articles 4, doctors 1, each with a backlog; passes of four lanes each.
    const backlog = (prefix: string) => Array.from({ length: 100 }, (_, n) => `${prefix}${n}`);
    const kinds = new Map([
      ['deliver.singleOrder', backlog('o')],
      ['deliver.article', backlog('a')],
      ['deliver.doctor', backlog('d')],
    ]);
    const shared = weightedTurns(weights);
    const passes = Array.from({ length: 4 }, () => takeTurns(kinds, shared, 4)).flat();
    const taken = (prefix: string) => passes.filter((unit) => unit.startsWith(prefix)).length;
    expect(taken('d')).toBeGreaterThanOrEqual(1);
    expect(taken('o')).toBeGreaterThan(taken('a'));
    expect(taken('a')).toBeGreaterThan(taken('d'));
  });
});
