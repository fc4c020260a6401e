import { contractFor, type OpenPaths, type Variant } from '../contract/index.js';
import { OffsetClock, systemClock, type Clock } from '../shared/clock.js';
import type { SimContext } from './api/context.js';
import { FaultSet } from './faults.js';
import { DEFAULT_KEYS, tenantsOf, type ApiKeyEntry } from './keys.js';
import { DEFAULT_LOOP_SUPPRESSION, type LoopSuppression } from './loopSuppression.js';
import { RequestLog } from './requestLog.js';
import { Router } from './routing.js';
import { generateSeed, type SeedSizes } from './seed/index.js';
import { RecordStore } from './store/recordStore.js';

export interface SimulatorStateOptions {
  variant: Variant;
  seed?: number;
  keys?: readonly ApiKeyEntry[];
  sizes?: Partial<SeedSizes>;
  clock?: Clock;
  paths?: Partial<OpenPaths>;
  /** Which reading of "left out of the next synchronisation result"; `next` unless told. */
  loopSuppression?: LoopSuppression;
}

/** Everything the simulator holds: records, keys, clock, faults and the request log. */
export interface SimulatorState extends SimContext {
  clock: OffsetClock;
  keys: ReadonlyMap<string, ApiKeyEntry>;
  tenants: readonly string[];
  faults: FaultSet;
  requests: RequestLog;
  router: Router;
  /** Drops every change and seeds each tenant again, deterministically. */
  reseed(): void;
}

export const DEFAULT_SEED = 1;

export function createState(options: SimulatorStateOptions): SimulatorState {
  const seed = options.seed ?? DEFAULT_SEED;
  const keys = options.keys ?? DEFAULT_KEYS;
  const contract = contractFor(options.variant, options.paths);
  const clock = new OffsetClock(options.clock ?? systemClock);
  const store = new RecordStore();
  const tenants = tenantsOf(keys);
  const reseed = (): void => {
    const now = clock.now();
    store.transaction(() => {
      store.clear();
      // Each tenant gets its own deterministic data: the first the seed, the next seed + 1, ...
      // Only the first tenant takes the requested sizes; the others exist to prove isolation.
      tenants.forEach((tenant, index) => {
        const sizes = index === 0 && options.sizes ? { sizes: options.sizes } : {};
        const records = generateSeed({
          seed: seed + index,
          variant: options.variant,
          now,
          ...sizes,
        });
        for (const { resource, record } of records) {
          store.put(tenant, resource, record, { changedByClient: null, acknowledged: false });
        }
      });
    });
  };
  reseed();
  return {
    variant: options.variant,
    contract,
    loopSuppression: options.loopSuppression ?? DEFAULT_LOOP_SUPPRESSION,
    store,
    clock,
    keys: new Map(keys.map((k) => [k.key, k])),
    tenants,
    faults: new FaultSet(seed),
    requests: new RequestLog(),
    router: new Router(contract),
    reseed,
  };
}
