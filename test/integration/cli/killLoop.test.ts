/**
 * THE KILL LOOP (slow: about two minutes on a quiet machine, more on a busy one). A daemon killed
 * with SIGKILL a hundred times at random moments — while it starts, takes its lock, pulls, hands
 * orders to the ERP and acknowledges them — against 1,000 orders, some 200 of them waiting to be
 * acknowledged, on the real simulator, each restart at once after the kill. In the end each
 * order had one effect: one file in the outbox, and for each that waited in Created one
 * acknowledgement the platform applied, none twice, none lost, none dead. The kill moments come
 * from a seeded random source, printed, so a failure repeats.
 */
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/shared/clock.js';
import { seededRandom } from '../../../src/simulator/random.js';
import { pollUntil } from '../../support/eventually.js';
import { api } from '../../support/simulator.js';
import { everyResource } from '../../support/cli/cliFolder.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const KILLS = 100;
const ORDERS = ['singleOrder', 'directOrder'] as const;
const SEED = 4711;

// Only the orders and what they refer to, so that a life of the daemon gets through a pass.
const pulled = new Set(['singleOrder', 'directOrder', 'integratedCare', 'patient', 'article']);
const rig = useDaemonRig({
  simulator: {
    seed: 29,
    // Real time on purpose, as the kills: the platform's clock runs and its delays pass while the
    // daemon lives, and the versions its writes make are told apart by their time.
    clock: systemClock,
    // About a fifth of the seeded orders wait in status created: some 200 to acknowledge.
    sizes: { singleOrders: 700, directOrders: 300, integratedCares: 80, patients: 40 },
  },
  config: {
    sync: {
      batchSize: 50,
      jitterSeconds: 0,
      reconcile: { enabled: false },
      resources: everyResource((resource) => ({ enabled: pulled.has(resource) })),
    },
    retry: { maxAttempts: 1000, baseDelayMs: 20, maxDelayMs: 200 },
  },
});

/** `/<resource>/<_id>` of the orders in one status list, as another client sees it. */
async function listed(resource: string, status: string): Promise<string[]> {
  const path = `/${resource}?status=${status}&updatedAfter=2000-01-01T00:00:00Z`;
  const answer = await api(rig().sim, 'GET', path, { key: 'demo-key-2' });
  return (answer.json as { _id: string }[]).map((record) => `/${resource}/${record._id}`);
}

async function inStatus(...statuses: string[]): Promise<string[]> {
  const all = new Set<string>();
  for (const resource of ORDERS) {
    for (const status of statuses) for (const path of await listed(resource, status)) all.add(path);
  }
  return [...all].sort();
}

const allCreated = () => inStatus('created');

/** Real time on purpose: the kills fall at random moments of a real process's life. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('kill -9 a hundred times', () => {
  it('leaves each order one file and, where it waited in Created, one acknowledgement; none dead', async () => {
    const { sim, f, start } = rig();
    const toAcknowledge = await allCreated();
    expect(toAcknowledge.length).toBeGreaterThanOrEqual(200);
    const orders = await inStatus('created', 'transmitted', 'updated', 'archived');
    // Slow acknowledgements, some refused: the work spreads over many lives of the daemon.
    await sim.control.setFault({ method: 'PATCH', latencyMs: 250 });
    await sim.control.setFault({ method: 'PATCH', errorRate: 0.2, errorStatus: 503 });

    const random = seededRandom(SEED);
    // Progress a life made: files handed to the ERP plus acknowledgements the platform took.
    const progress = async () => {
      const requests = await sim.control.requests();
      const taken = requests.filter((r) => r.method === 'PATCH' && r.status === 200).length;
      return f.outboxFiles().length + taken;
    };
    // Work is left while an order waits in Created or has no file yet.
    const workLeft = async () =>
      (await allCreated()).length > 0 || f.outboxFiles().length < orders.length;
    // Waits until the running life has handed something over (or `ms` passed); the progress
    // asks the simulator for every request so far, so not too often.
    const firstWork = (since: number, ms: number) =>
      pollUntil(async () => (await progress()) > since, { boundMs: ms, everyMs: 100 });
    let done = 0;
    let handedOver = 0;
    let livesThatWorked = 0;
    for (let kill = 0; kill < KILLS; kill += 1) {
      const daemon = start();
      // Some kills fall while it starts (lock, database check), some at a random moment after,
      // the rest while it is handing over: a busy machine may take longer than any fixed
      // moment to get a life that far, and those kills are the ones this test is for.
      const moment = random();
      if (moment < 0.15) await sleep(Math.floor(random() * 1500));
      else {
        await daemon.waitForLog('homecare-sync started');
        if (moment >= 0.5 && (await workLeft())) await firstWork(done, 30_000);
        await sleep(random() * 1500);
      }
      daemon.signal('SIGKILL');
      const ended = await daemon.exited;
      // A daemon that ended on its own before the kill failed: show why.
      expect(ended, `life ${kill}: ${daemon.stderr()}`).toBe('SIGKILL');
      const now = await progress();
      if (now > done) livesThatWorked += 1;
      done = now;
      handedOver = f.outboxFiles().length;
    }
    console.log(
      `kill loop: seed ${SEED}, ${KILLS} kills; ${livesThatWorked} lives handed files to the ERP or acknowledged orders, ${handedOver} files before the last pass`,
    );
    // The kills fell while there was work under way, not only on an idle daemon.
    expect(livesThatWorked).toBeGreaterThan(5);

    await sim.control.clearFaults();
    const finish = await f.cli('sync', '--once');
    expect(finish.code, finish.stderr).toBe(0);

    const requests = await sim.control.requests();
    const written = requests
      .filter((r) => r.method === 'PATCH' && r.status === 200)
      .map((r) => r.path)
      .sort();
    // Every order that waited in Created was acknowledged once: a kill after the platform took
    // a PATCH but before the daemon recorded its answer leaves the job interrupted, and the next
    // life reads the order back before it writes (writeOnce). None is left in Created.
    const isOrder = (path: string) => ORDERS.some((order) => path.startsWith(`/${order}/`));
    expect(written.filter(isOrder)).toEqual(toAcknowledge);
    expect(written.filter((path, at) => written[at - 1] === path)).toEqual([]);
    const dead = JSON.parse((await f.cli('status', '--json')).stdout) as {
      queue: { dead: number; openDeadLetters: number };
    };
    expect(dead.queue).toMatchObject({ dead: 0, openDeadLetters: 0 });
    expect(await allCreated()).toEqual([]);

    // One file per order (names are <_id>_<version>), in the version as pulled: the version our
    // own acknowledgement made is no news to the ERP, and no kill hands an order over twice.
    const perOrder = new Map<string, string[]>();
    for (const file of f.outboxFiles()) {
      const [resource, name] = file.split('/');
      if (!ORDERS.some((order) => order === resource) || name === undefined) continue;
      const order = `/${resource}/${name.slice(0, name.lastIndexOf('_'))}`;
      perOrder.set(order, [...(perOrder.get(order) ?? []), file]);
    }
    expect([...perOrder.keys()].sort()).toEqual(orders);
    expect([...perOrder.values()].filter((files) => files.length !== 1)).toEqual([]);
  }, 1_200_000);
});
