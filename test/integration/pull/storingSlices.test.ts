/**
 * A catalogue's page is stored in slices, the event loop free between two (issue 37, fair
 * delivery under a backlog): work that arrives while a page is stored (an order list's run, an
 * order's hand-over) gets its turn before the page is through, and a pull that dies mid-page
 * loses and doubles nothing. The order of events is asserted, never a time: the figure (order
 * create → file p95 beside a 300,000-article first pull) lives in `npm run bench -- backlog`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contractFor } from '../../../src/contract/index.js';
import { pullTarget, type PullStore, type PullSummary } from '../../../src/pull/puller.js';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import { pullTargets, type PullTarget } from '../../../src/pull/targets.js';
import { countJobs, getCheckpoint } from '../../../src/store/index.js';
import { startPullRig, type PullRig } from '../../support/daemon.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const ARTICLES = 1_200;
const PAGE = 500;

let sim: TestSimulator;
beforeAll(async () => {
  sim = await startTestSimulator({ seed: 37, sizes: { articles: ARTICLES, singleOrders: 20 } });
}, 60_000);
afterAll(async () => {
  await sim.close();
});

function targetOf(resource: string): PullTarget {
  const found = pullTargets(contractFor('B')).find((t) => t.resource === resource);
  if (found === undefined) throw new Error(`variant B has no ${resource} list`);
  return found;
}

/**
 * The rig's store as the puller sees it, telling `onCommit` of each commit of the catalogue's
 * list (how many of its records are stored by then) after it is made.
 */
function watchedStore(rig: PullRig, onCommit: (stored: number) => void): PullStore {
  const store = sqlitePullStore(rig.store, () => undefined);
  let stored = 0;
  return {
    ...store,
    commitBatch(run, records, bad, end) {
      const counts = store.commitBatch(run, records, bad, end);
      if (run.target.resource === 'article') {
        stored += records.length;
        onCommit(stored);
      }
      return counts;
    },
  };
}

describe("a catalogue's page is stored in slices", () => {
  let rig: PullRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  const depsOf = (pulls: PullRig, store: PullStore) => ({
    store,
    source: pulls.client,
    clock: pulls.clock,
    settings: { overlapSeconds: 120, createdLookbackDays: 30, batchSize: PAGE },
  });

  it("gives an order list's run the event loop before the page's last record is stored", async () => {
    const pulls = startPullRig(sim.url, 'B');
    rig = pulls;
    // The catalogue's records stored at each of its commits, and when the order list ran.
    const events: (number | 'order list run')[] = [];
    let orders: Promise<PullSummary> | undefined;
    const store = watchedStore(pulls, (stored) => {
      events.push(stored);
      // The order list's run, due while the page is stored: it starts at the loop's next turn.
      orders ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        events.push('order list run');
        const own = sqlitePullStore(pulls.store, () => undefined);
        return pullTarget(depsOf(pulls, own), targetOf('singleOrder'));
      });
    });

    const catalogue = await pullTarget(depsOf(pulls, store), targetOf('article'));
    const orderList = await orders;

    // The list leaves some seeded articles out (variant B's filter); more than two pages of it.
    expect(catalogue.fetched).toBeGreaterThan(2 * PAGE);
    expect(catalogue).toMatchObject({ ok: true, fresh: catalogue.fetched });
    expect(orderList?.ok).toBe(true);
    const storedBefore = events.slice(0, events.indexOf('order list run')).at(-1);
    // The first page held the loop for one slice, not for all its 500 records.
    expect(storedBefore).toBeGreaterThan(0);
    expect(storedBefore).toBeLessThan(PAGE);
    const commits = events.filter((event) => typeof event === 'number');
    expect(commits.length).toBeGreaterThan(Math.ceil(catalogue.fetched / PAGE));
    // Each article handed over once.
    expect(countJobs(pulls.store, 'pending', 'deliver.article')).toBe(catalogue.fetched);
  });

  it('repeats the page of a pull that died mid-page: no record lost, none stored or handed over twice', async () => {
    const pulls = startPullRig(sim.url, 'B');
    rig = pulls;
    const target = targetOf('article');
    let commits = 0;
    let storedBeforeCrash = 0;
    const dying = watchedStore(pulls, (stored) => {
      commits += 1;
      // The third slice of the first page is committed, and the process dies before the next.
      if (commits === 3) {
        storedBeforeCrash = stored;
        throw new Error('the process died');
      }
    });

    const died = await pullTarget(depsOf(pulls, dying), target);

    expect(died.ok).toBe(false);
    expect(storedBeforeCrash).toBeGreaterThan(0);
    expect(storedBeforeCrash).toBeLessThan(PAGE);
    expect(getCheckpoint(pulls.store, target.resource, target.filter)?.watermark).toBeUndefined();
    const again = await pullTarget(
      depsOf(
        pulls,
        sqlitePullStore(pulls.store, () => undefined),
      ),
      target,
    );
    expect(again.fetched).toBeGreaterThan(2 * PAGE);
    expect(again).toMatchObject({
      ok: true,
      fresh: again.fetched - storedBeforeCrash,
      repeats: storedBeforeCrash,
    });
    expect(getCheckpoint(pulls.store, target.resource, target.filter)?.watermark).toBeDefined();
    expect(countJobs(pulls.store, 'pending', 'deliver.article')).toBe(again.fetched);
  });

  it('commits a slice without its own fsync unless it moves the checkpoint', async () => {
    const pulls = startPullRig(sim.url, 'B');
    rig = pulls;
    const { db } = pulls.store;
    const pragma = db.pragma.bind(db);
    let unsynced = false;
    // Each commit's durability, read from the rule the store sets for it on the connection.
    db.pragma = (source, options) => {
      if (source === 'synchronous = NORMAL') unsynced = true;
      return pragma(source, options);
    };
    const store = sqlitePullStore(pulls.store, () => undefined);
    const commits: { movesCheckpoint: boolean; unsynced: boolean }[] = [];
    const noting: PullStore = {
      ...store,
      commitBatch(run, records, bad, end) {
        unsynced = false;
        const counts = store.commitBatch(run, records, bad, end);
        commits.push({ movesCheckpoint: end?.advanceTo !== undefined, unsynced });
        return counts;
      },
    };

    const catalogue = await pullTarget(depsOf(pulls, noting), targetOf('article'));

    expect(catalogue.ok).toBe(true);
    expect(commits.filter((commit) => commit.movesCheckpoint)).toEqual([
      { movesCheckpoint: true, unsynced: false },
    ]);
    const slices = commits.filter((commit) => !commit.movesCheckpoint);
    expect(slices.length).toBeGreaterThan(2);
    expect(slices.every((commit) => commit.unsynced)).toBe(true);
    expect(pragma('synchronous', { simple: true })).toBe(2);
  });
});
