/**
 * Mechanism: read models, the figures an output shows, read from the store and the files beside
 * it and shaped once for every output that shows them: where the space goes (`status`'s
 * storage section, `/metrics`).
 */
export * from './storage.js';
