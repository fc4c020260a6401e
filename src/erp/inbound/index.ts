/**
 * The file inbox: each scan finishes what a crash left in `.processing`, then claims the
 * complete files of every kind folder (claim.ts, completeness.ts, entries.ts), reads each in its
 * format (read.ts), hands its messages to the store and archives it (handOff.ts), or sets it
 * aside in `.error/` with a report (setAside.ts); what a scan did is logged and counted
 * (scanReport.ts). The inbox's folders: folders.ts.
 */
export * from './fileNames.js';
export * from './folders.js';
export * from './handOff.js';
export * from './inbox.js';
export * from './options.js';
export * from './read.js';
export * from './scanReport.js';
export * from './setAside.js';
