import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Variant } from '../../../src/contract/index.js';
import { createPlatformClient } from '../../../src/platform/index.js';
import { createHandlers } from '../../../src/pushback/index.js';
import type { DeliverKind, HandlerContext, Job, JobKind } from '../../../src/queue/types.js';

/** The kinds that talk to the platform (the hand-overs to the ERP are tested with the app). */
type PlatformKind = Exclude<JobKind, DeliverKind>;
import {
  openStore,
  transaction,
  upsertMirror,
  type MirrorRecord,
  type Store,
} from '../../../src/store/index.js';
import type { LoopSuppression, RequestLogEntry } from '../../../src/simulator/index.js';
import { FakeClock } from '../fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../simulator.js';

const SIM_START = '2026-03-01T08:00:00.000Z';

/** A simulator of one variant, a store on disk and the handlers, called directly with jobs. */
export interface HandlerRig {
  sim: TestSimulator;
  /** The simulator's clock: the platform stamps its records with it. */
  simClock: FakeClock;
  store: Store;
  context: HandlerContext;
  /** Runs one job of `kind`; `attempts` are the tries before this one. */
  run(kind: PlatformKind, payload: Record<string, unknown>, attempts?: number): Promise<void>;
  /** The run's rejection, or a failed assertion when it resolved. */
  failure(kind: PlatformKind, payload: Record<string, unknown>, attempts?: number): Promise<Error>;
  /** API requests the simulator saw with this method whose path starts with `prefix`. */
  requests(method: string, prefix: string): Promise<RequestLogEntry[]>;
  /** A record on the platform, made by a platform user (not by our key), and, when `pulled`, in our mirror. */
  platformRecord(
    resource: string,
    record: Record<string, unknown>,
    pulled?: boolean,
  ): Promise<Record<string, unknown>>;
  stored(resource: string, id: string): Promise<Record<string, unknown>>;
  /** What the handlers remembered of `resource` in the mirror. */
  mirrored(resource: string): MirrorRecord[];
  close(): Promise<void>;
}

let nextJobId = 1;

export async function startHandlerRig(
  variant: Variant,
  options: { apiKey?: string; loopSuppression?: LoopSuppression } = {},
): Promise<HandlerRig> {
  const simClock = new FakeClock(SIM_START);
  const sim = await startTestSimulator({
    variant,
    clock: simClock,
    ...(options.loopSuppression === undefined ? {} : { loopSuppression: options.loopSuppression }),
  });
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-handlers-'));
  const clock = new FakeClock(SIM_START);
  const store = openStore({ path: join(folder, 'sync.db'), clock });
  const client = createPlatformClient({
    baseUrl: sim.url,
    apiKey: options.apiKey ?? 'demo-key',
    variant,
    timeoutMs: 5_000,
    concurrency: 2,
    clock,
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    sleep: () => Promise.resolve(),
  });
  const context: HandlerContext = {
    client,
    store,
    contract: client.contract,
    clock,
    logger: pino({ enabled: false }),
  };
  const handlers = createHandlers();
  const run = async (kind: PlatformKind, payload: Record<string, unknown>, attempts = 0) => {
    const handler = handlers[kind];
    if (!handler) throw new Error(`no handler for ${kind}`);
    const job: Job = {
      id: nextJobId++,
      kind,
      entityKey: `${kind}:test`,
      payload,
      attempts,
      createdAt: clock.now().toISOString(),
    };
    // As the worker does: what the success makes true commits in one transaction.
    const complete = await handler(job, context);
    if (complete) transaction(store, complete);
  };
  return {
    sim,
    simClock,
    store,
    context,
    run,
    async failure(kind, payload, attempts = 0) {
      try {
        await run(kind, payload, attempts);
      } catch (error) {
        if (error instanceof Error) return error;
        throw new Error(`a non-Error was thrown: ${String(error)}`);
      }
      throw new Error(`the ${kind} job succeeded, but a failure was expected`);
    },
    async requests(method, prefix) {
      const all = await sim.control.requests();
      return all.filter((r) => r.method === method && r.path.startsWith(prefix));
    },
    async platformRecord(resource, record, pulled = false) {
      const created = await sim.control.createRecord(resource, record);
      if (pulled) {
        const id = String(created._id);
        upsertMirror(store, resource, { ...created, _id: id }, String(created.timestamp));
      }
      return created;
    },
    stored: (resource, id) => sim.control.getRecord(resource, id),
    mirrored: (resource) =>
      store.db
        .prepare<[string], { json: string }>(
          'SELECT json FROM mirror WHERE resource = ? ORDER BY _id',
        )
        .all(resource)
        .map((row) => JSON.parse(row.json) as MirrorRecord),
    async close() {
      await client.close();
      store.close();
      rmSync(folder, { recursive: true, force: true });
      await sim.close();
    },
  };
}
