/**
 * Mechanism: the platform contract as data. Paths and methods per variant, list rules, status
 * filters, enumerations, schemas, stamps and what our own change is. Nothing else spells a path or
 * a variant difference.
 */
export * from './variants.js';
export * from './resources.js';
export * from './query.js';
export * from './statusFilters.js';
export * from './operations.js';
export * from './contract.js';
export * from './orderStatus.js';
export * from './enums.js';
export * from './productGroup.js';
export * from './personalFields.js';
export * from './body.js';
export * from './readings.js';
export * from './schemas/index.js';
export * from './contentVersion.js';
export * from './archival.js';
export * from './nestedEntries.js';
export * from './ownChange.js';
export * from './stamps.js';
export * from './changedFields.js';
export * from './variantProbes.js';
