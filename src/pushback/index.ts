/**
 * Stage 3, push back: one descriptor per kind the ERP reports (kinds/), the acknowledgement's
 * write, the one way a platform write is made once, and the one preview of what a job writes
 * (preview/: its own handler against a core that notes writes instead of sending them).
 */
export { createHandlers } from './handlers.js';
export { freshJob, previewOfJob, type Preview } from './preview/run.js';
export type { NotedRequest, NotedWrite } from './preview/notingCore.js';
export { mirrorCore } from './preview/mirrorCore.js';
export { PUSH_BACK_KINDS, type PushBackKindName } from './kinds/index.js';
export { isPushBackKind, jobFromInbox, PUSH_BACK_KIND_NAMES, supersedingKind } from './registry.js';
export { NOT_KNOWN_GRACE_ATTEMPTS, NOT_KNOWN_RETRY_AFTER_MS } from './once/failures.js';
export { recordTriedChange } from './once/write.js';
export { noteInterruptedWrites, noteWritesUnderWay } from './once/interrupted.js';
export type { InboundResult } from './intake.js';
