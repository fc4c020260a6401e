/**
 * The mapping language of the ERP's own layouts: its schema and types (spec.ts), applied to
 * records going out (outbound.ts) and to a file's records coming in (inbound.ts, records.ts),
 * through paths of the records' shapes (paths.ts, shape.ts, sources.ts), values (values.ts,
 * typed.ts, numbers.ts, dates.ts), and checked against them (checks.ts).
 */
export * from './checks.js';
export * from './dates.js';
export * from './inbound.js';
export * from './numbers.js';
export * from './outbound.js';
export * from './paths.js';
export * from './records.js';
export * from './shape.js';
export * from './sources.js';
export * from './spec.js';
export * from './typed.js';
export * from './values.js';
