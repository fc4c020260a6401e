import { maskPersonal, messageLabel, type PersonalValues } from '../log/index.js';
import {
  operatorActionsOn,
  pauseActionsOf,
  personalValuesOf,
  quarantined,
  type RecordedAction,
  type RecordSubject,
  type Store,
} from '../store/index.js';
import { query } from '../store/statements.js';
import type { TraceEvent } from './event.js';
import { UNNAMED, type HandOverNaming } from './handOvers.js';
import { jobEvents, jobsOf, openDeadLetters, type JobRow } from './jobs.js';
import { SHOWN, unqueuedMessageEvents, type Mask } from './messages.js';
import { versionEvents } from './versions.js';
import { whyWaiting } from './waiting.js';

/**
 * One record's way through the daemon, read from what the database keeps (`trace <key>`):
 * its pulled versions, each with the names of the fields it changed, and hand-overs (ledger),
 * the jobs about it (queue, by entity key) with their dead letters, the ERP messages those jobs
 * came from (inbox_messages), and our last write's fingerprint (own_writes). Reads only.
 *
 * Personal values reach a timeline only inside the other side's words: a job's last error and a
 * dead letter's reason (an answer may quote the record), and the ERP's file names. Unless they
 * are `shown`, those texts are masked as every output is (maskPersonal): the values of the
 * record's personal fields, of its patient's and of its jobs' payloads wherever they stand (see
 * personalValuesOf), and `"key": value` pairs of personal keys; a file name becomes its label
 * (messageLabel, as logs show it). Ids, keys, statuses, stamps and job ids stay: they are what
 * one searches by. So do field names: the pull keeps no values of what a version changed.
 */

function ownWriteEvent(store: Store, subject: RecordSubject): TraceEvent[] {
  const row = query<
    { resource: string; id: string },
    { written_at: string; editor: string | null }
  >(
    store.db,
    'SELECT written_at, editor FROM own_writes WHERE resource = @resource AND _id = @id',
    { written_at: 'text', editor: 'text?' },
  ).get({ resource: subject.resource, id: subject.id });
  if (row === undefined) return [];
  const editor = row.editor === null ? '' : ` (the platform named ${row.editor})`;
  const what = `our last write to it${editor}: its echo in a pull is known as ours`;
  return [{ at: row.written_at, kind: 'ownWrite', what }];
}

const ENDED_STATES: ReadonlySet<string> = new Set(['done', 'dead', 'superseded']);

/**
 * What operators did to the record and its jobs (queue retry and drop, redeliver), and who;
 * and the pauses that held its pulls or its jobs (`pausable`: the kinds a push pause holds).
 */
function operatorEvents(
  store: Store,
  subject: RecordSubject,
  jobs: readonly JobRow[],
  pausable: (kind: string) => boolean,
  firstSeen: string | undefined,
): TraceEvent[] {
  const subjects = [`${subject.resource}:${subject.id}`, ...jobs.map((job) => `job:${job.id}`)];
  const lives = jobs.map((job) => ({
    kind: job.kind,
    createdAt: job.created_at,
    endedAt: ENDED_STATES.has(job.state) ? job.updated_at : undefined,
  }));
  const pulls =
    firstSeen === undefined ? {} : { pulls: { resource: subject.resource, from: firstSeen } };
  const pauses = pauseActionsOf(store, { ...pulls, jobs: lives, holds: pausable });
  return [...operatorActionsOn(store, subjects), ...pauses].map((done: RecordedAction) => {
    const detail = done.detail === undefined ? '' : ` (${done.detail})`;
    const what = `${done.action} of ${done.subject}${detail} by ${done.osUser} on ${done.host}`;
    return { at: done.at, kind: 'operator' as const, what };
  });
}

/** The masking of one subject's timeline: its record's and its jobs' personal values. */
function maskOf(store: Store, subject: RecordSubject, jobs: readonly JobRow[]): Mask {
  const known = personalValuesOf(
    store,
    subject,
    jobs.map((job) => job.payload),
  );
  return { text: (text) => maskPersonal(text, known), name: messageLabel };
}

/** How a timeline is read. */
export interface TraceOptions {
  /**
   * The job kinds a push pause holds back (the queue's platform writes), whose pauses the
   * timeline shows while such a job was open.
   */
  pausable?: (kind: string) => boolean;
  /** See PersonalValues; masked unless told. */
  personal?: PersonalValues;
  /** What the ERP got at each hand-over: its file or request (handOvers.ts). */
  handOvers?: HandOverNaming;
}

/** A job about the record as its story lists it: `deadLetterOpen` when it waits for an operator. */
export interface StoryJob {
  id: number;
  kind: string;
  state: string;
  deadLetterOpen: boolean;
}

/** A record's story: what happened to it, oldest first, and what holds it now. */
export interface Story {
  events: TraceEvent[];
  /** Why it has not moved (waiting.ts); empty when nothing holds it. */
  waiting: string[];
  jobs: StoryJob[];
}

/** The subject's story: its timeline (events of one time in the order they happened), its wait. */
export function storyOf(store: Store, subject: RecordSubject, options: TraceOptions = {}): Story {
  const { pausable = () => false, personal = 'masked', handOvers = UNNAMED } = options;
  const jobs = jobsOf(store, subject);
  const mask = personal === 'shown' ? SHOWN : maskOf(store, subject, jobs);
  const recorded = [
    ...versionEvents(store, subject, handOvers),
    ...jobs.flatMap((job) => jobEvents(store, job, mask, handOvers)),
    ...unqueuedMessageEvents(store, subject, mask),
    ...ownWriteEvent(store, subject),
    ...quarantined(store, subject).map(({ at, what }) => ({
      at,
      kind: 'quarantine' as const,
      what: mask.text(what),
    })),
  ];
  const firstSeen = recorded.map((event) => event.at).sort()[0];
  const events = [...recorded, ...operatorEvents(store, subject, jobs, pausable, firstSeen)]
    .map((event, order) => ({ event, order }))
    .sort((a, b) =>
      a.event.at < b.event.at ? -1 : a.event.at > b.event.at ? 1 : a.order - b.order,
    )
    .map(({ event }) => event);
  const now = store.clock.now().toISOString();
  const openLetters = openDeadLetters(store, jobs);
  return {
    events,
    waiting: whyWaiting({ store, subject, jobs, mask, pausable, now, openLetters }),
    jobs: jobs.map(({ id, kind, state }) => ({
      id,
      kind,
      state,
      deadLetterOpen: openLetters.has(id),
    })),
  };
}

/** The subject's timeline alone (storyOf). */
export function traceOf(
  store: Store,
  subject: RecordSubject,
  options: TraceOptions = {},
): TraceEvent[] {
  return storyOf(store, subject, options).events;
}
