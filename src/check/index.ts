/**
 * Interface: the online check (`check --online`), first contact with the platform and the ERP.
 * One verdict per point (the platform's reach, the key, the variant seen, the clock, read rights
 * per resource, the ERP's folders or REST endpoint, the local store), read-only on the platform
 * and side-effect-free for the ERP. It calls the mechanisms the daemon uses: the platform client,
 * the contract's variant data, the store's open, the ERP adapters' own options and probes.
 */
export {
  runOnlineCheck,
  UnknownCheckError,
  type OnlineCheckOptions,
  type OnlineCheckReport,
} from './online.js';
export type { CheckDeps } from './context.js';
export { exitCodeOf, type CheckStatus, type Verdict } from './verdict.js';
export {
  reportJson,
  reportText,
  countsText,
  verdictLines,
  keptCheckLines,
  keptCheckSummary,
} from './text.js';
export { ALL_CHECK_IDS } from './select.js';
