export * from './checks.js';
export * from './options.js';
export * from './outcome.js';
export * from './reach.js';
export * from './restAdapter.js';
export * from './shown.js';
