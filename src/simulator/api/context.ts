import type { Clock } from '../../shared/clock.js';
import type { Contract, Variant } from '../../contract/index.js';
import type { ApiKeyEntry } from '../keys.js';
import type { LoopSuppression } from '../loopSuppression.js';
import type { RecordStore } from '../store/recordStore.js';

/** What every handler reads: the variant's contract, the records and the simulator's clock. */
export interface SimContext {
  variant: Variant;
  contract: Contract;
  store: RecordStore;
  clock: Clock;
  /** How long a client's own changes are left out of its pulls. */
  loopSuppression: LoopSuppression;
}

/** One API request: the simulator plus the caller its key names. */
export interface CallContext extends SimContext {
  caller: ApiKeyEntry;
}
