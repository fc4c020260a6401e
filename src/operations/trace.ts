import { restAdapterOptions } from '../deliver/adapter.js';
import type { Config } from '../config/index.js';
import { fileLabel, type PersonalValues } from '../log/index.js';
import { isPlatformWrite } from '../queue/index.js';
import {
  getMirror,
  recordShowPersonal,
  subjectOfEntity,
  transaction,
  type Operator,
  type RecordSubject,
  type Store,
} from '../store/index.js';
import {
  fileHandOvers,
  storyOf,
  subjectsOfKey,
  type HandOverNaming,
  type Story,
} from '../trace/index.js';

/** One record a key names, with its timeline and what holds it now. */
export interface TracedRecord extends Story {
  resource: string;
  id: string;
}

/**
 * How the config's adapter names a hand-over (trace/handOvers.ts). The REST adapter's naming is
 * loaded only for a REST config, as the adapter itself is.
 */
export async function handOversOf(config: Config): Promise<HandOverNaming> {
  if (config.erp.adapter === 'file') return fileHandOvers(config.erp.file.format);
  const { restHandOvers } = await import('../trace/restHandOvers.js');
  return restHandOvers(restAdapterOptions(config));
}

/** What a trace is read with: the personal values masked or shown, the hand-overs' naming. */
export interface TraceReading {
  personal: PersonalValues;
  handOvers: HandOverNaming;
}

function storiesOf(
  store: Store,
  subjects: readonly RecordSubject[],
  reading: TraceReading,
): TracedRecord[] {
  const { personal, handOvers } = reading;
  return subjects.map((subject) => ({
    resource: subject.resource,
    id: subject.id,
    ...storyOf(store, subject, { pausable: isPlatformWrite, personal, handOvers }),
  }));
}

/** Who looked at personal values, and through what (`trace`, `console`). */
export interface Look {
  by: Operator;
  via: string;
}

/**
 * The key as the audit keeps it, for good: an ERP file's name (it may be the patient's) by its
 * label, as logs show it; ids and ERP keys as given.
 */
const keptKey = (key: string): string => (/\.[A-Za-z0-9]{1,8}$/.test(key) ? fileLabel(key) : key);

/**
 * Who saw the personal values: an operator action on each record traced, and on each job whose
 * texts the masking would have changed (so `queue show` of that job names the look too).
 */
function recordLooks(
  store: Store,
  subjects: readonly RecordSubject[],
  shown: readonly TracedRecord[],
  look: Look & { what: string },
  handOvers: HandOverNaming,
): void {
  const masked = storiesOf(store, subjects, { personal: 'masked', handOvers });
  const jobs = new Set<number>();
  shown.forEach((record, r) =>
    record.events.forEach((event, e) => {
      const other = masked[r]?.events[e];
      if (event.job !== undefined && other?.what !== event.what) jobs.add(event.job);
    }),
  );
  const looked = shown.map((record) => `${record.resource}:${record.id}`);
  looked.push(...[...jobs].map((job) => `job:${job}`));
  for (const subject of looked) {
    recordShowPersonal(store, { subject, detail: `${look.via} ${look.what}` }, look.by);
  }
}

/** The stories of `subjects`; shown, with the look kept in the same transaction. */
function readStories(
  store: Store,
  subjects: readonly RecordSubject[],
  reading: TraceReading,
  look: Look & { what: string },
): TracedRecord[] {
  if (reading.personal === 'masked') return storiesOf(store, subjects, reading);
  return transaction(store, () => {
    const shown = storiesOf(store, subjects, reading);
    recordLooks(store, subjects, shown, look, reading.handOvers);
    return shown;
  });
}

/**
 * Every record `key` names, each with its timeline; none when the database knows no such key.
 * Masked, nothing is written; shown, the look is kept (who, and `via`: what showed it, `trace`
 * or `console`) in the same transaction as the reading.
 */
export function traceRecords(
  store: Store,
  key: string,
  reading: TraceReading,
  look: Look,
): TracedRecord[] {
  return readStories(store, subjectsOfKey(store, key), reading, { ...look, what: keptKey(key) });
}

/**
 * The story of one record, by its resource and id (the console's page of a record), or
 * undefined when the database knows nothing of it; shown, the look is kept as traceRecords keeps
 * it.
 */
export function recordStory(
  store: Store,
  record: { resource: string; id: string },
  reading: TraceReading,
  look: Look,
): TracedRecord | undefined {
  const subject = subjectOfEntity(store, `${record.resource}:${record.id}`);
  const what = `${record.resource}:${record.id}`;
  const [story] = readStories(store, [subject], reading, { ...look, what });
  const known =
    story !== undefined &&
    (story.events.length > 0 || getMirror(store, record.resource, record.id) !== undefined);
  return known ? story : undefined;
}
