export {
  createRestAdapter,
  erpRequestOf,
  idempotencyKey,
  requestBody,
  NOT_SENT_REASON,
  type RestAdapterDeps,
} from './restAdapter.js';
export { outcomeOfAnswer, outcomeOfFailure, type Attempt, type ErpAnswer } from './outcome.js';
export { checkRestOptions } from './checks.js';
export * from './options.js';
export { shownRequest, type ShownRequest } from './shown.js';
export { reachErp, type ErpReach } from './reach.js';
