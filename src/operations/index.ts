/**
 * Operations: what an operator does and sees, once, for every interface that offers it: the
 * CLI's commands and the console call these and never a copy. Each change is kept as an
 * operator action with who did it (store/operatorActions.ts), in the change's own transaction.
 */
export * from './deadLetters.js';
export * from './pauses.js';
export * from './redeliver.js';
export * from './status.js';
export * from './trace.js';
export type { Operator } from '../store/index.js';
