import { restAdapterOptions } from '../app/adapter.js';
import type { Config } from '../config/index.js';
import { fileLabel, type PersonalValues } from '../log/index.js';
import { isPlatformWrite } from '../queue/index.js';
import { recordShowPersonal, transaction, type Operator, type Store } from '../store/index.js';
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

function tracesOf(store: Store, key: string, reading: TraceReading): TracedRecord[] {
  const { personal, handOvers } = reading;
  return subjectsOfKey(store, key).map((subject) => ({
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
  key: string,
  shown: readonly TracedRecord[],
  look: Look,
  handOvers: HandOverNaming,
): void {
  const masked = tracesOf(store, key, { personal: 'masked', handOvers });
  const jobs = new Set<number>();
  shown.forEach((record, r) =>
    record.events.forEach((event, e) => {
      const other = masked[r]?.events[e];
      if (event.job !== undefined && other?.what !== event.what) jobs.add(event.job);
    }),
  );
  const subjects = shown.map((record) => `${record.resource}:${record.id}`);
  subjects.push(...[...jobs].map((job) => `job:${job}`));
  for (const subject of subjects) {
    recordShowPersonal(store, { subject, detail: `${look.via} ${keptKey(key)}` }, look.by);
  }
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
  if (reading.personal === 'masked') return tracesOf(store, key, reading);
  return transaction(store, () => {
    const shown = tracesOf(store, key, reading);
    recordLooks(store, key, shown, look, reading.handOvers);
    return shown;
  });
}
