/**
 * Mechanism: a record's story, read from what the database keeps. One read model, two views:
 * `trace <key>` prints it, the console's story page shows it. The search finds the records a
 * key names (search.ts), the timeline tells what happened to one (timeline.ts).
 */
export { exactMatches, subjectsOfKey } from './search.js';
export { MIN_PREFIX_CHARS } from './prefix.js';
export { searchKey, type KeySearch } from './find.js';
export { KEY_KINDS, type KeyKind, type KeyMatch } from './keys.js';
export { storyOf, traceOf, type Story, type StoryJob, type TraceOptions } from './timeline.js';
export { fileHandOvers, UNNAMED, type HandedVersion, type HandOverNaming } from './handOvers.js';
export type { TraceEvent, TraceEventKind } from './event.js';
