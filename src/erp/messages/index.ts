/**
 * What an ERP message is, whether it comes in a file or by `POST /erp/<kind>`: the push-back
 * kinds the inbox is given as data (kinds.ts: name, schema, default layout, business key), how a
 * message is checked against its kind (check.ts, fields.ts, within bounds.ts), what makes it the
 * one it is (identity.ts, stamp.ts), the rows of one business key merged into one message
 * (merge.ts), the orders a message names (orders.ts), and each kind's layout of its files
 * (layouts.ts).
 */
export * from './bounds.js';
export * from './check.js';
export * from './droppedFields.js';
export * from './fields.js';
export * from './identity.js';
export * from './kinds.js';
export * from './layouts.js';
export * from './merge.js';
export * from './orders.js';
export * from './problems.js';
export * from './stamp.js';
