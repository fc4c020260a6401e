import {
  contractFor,
  type Contract,
  type OpenPaths,
  type OperationKind,
  type ResourceName,
  type Variant,
} from '../contract/index.js';
import type { Clock } from '../shared/clock.js';
import { TransientError } from '../shared/errors.js';
import { DEFAULT_READ_RETRY, retryDelay, type RetryPolicy } from './backoff.js';
import { Breakers, type Outage } from './breaker.js';
import {
  jsonArrayItems,
  readFile,
  readJson,
  readRecord,
  type ListEntry,
  type PlatformFile,
  type PlatformRecord,
} from './bodies.js';
import { listBoundError, type RequestContext } from './errors.js';
import type { ListBounds } from './listBounds.js';
import { createDispatcher } from './dispatcher.js';
import { prepare, type PreparedRequest, type Query, type SendRequest } from './prepare.js';
import { PlatformClock } from './skew.js';
import { open, type OpenResponse, type Transport } from './transport.js';
import { peek, type PeekAnswer } from './peek.js';

export interface PlatformClientOptions {
  baseUrl: string;
  apiKey: string;
  variant: Variant;
  paths?: Partial<OpenPaths>;
  timeoutMs: number;
  concurrency: number;
  caFile?: string;
  clock: Clock;
  /** For reads only; writes are retried by the durable queue, never here. */
  retry?: RetryPolicy;
  sleep?: (ms: number) => Promise<void>;
  /** 0 ≤ random() < 1, for the jitter of the back-off. */
  random?: () => number;
  /** Where proxy settings come from (HTTPS_PROXY, HTTP_PROXY, NO_PROXY); none when omitted. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Hears the platform's outage (`outage()`) start and end, as they happen. */
  outageChanged?: () => void;
}

/** The generic core every typed method is built on. */
export interface PlatformCore {
  readonly contract: Contract;
  /** Checks the request against the contract, sends it, and returns the JSON answer (reads retried). */
  send(resource: ResourceName, kind: OperationKind, request?: SendRequest): Promise<unknown>;
  /** Like `send`, for answers that must be one JSON object (an entity or an acknowledgement). */
  record(
    resource: ResourceName,
    kind: OperationKind,
    request?: SendRequest,
  ): Promise<PlatformRecord>;
  /**
   * The HTTP status (200, 201, 204) of the write `record` is the answer to, when this client
   * made that write; undefined for any other record (a read's, one built here). Kept beside the
   * record, not in it, so the record stays what the platform sent.
   */
  answerStatus(record: PlatformRecord): number | undefined;
  /** The records of a list, streamed. The contract is checked at once; the request goes out on iteration. */
  list(resource: ResourceName, query?: Query): AsyncIterable<PlatformRecord>;
  /**
   * Like `list`, each record with its text as the platform sent it. With `bounds` the list stops
   * with an error at its records, bytes and seconds bounds, and a record too long or too deep to
   * store comes as a set-aside entry instead of a record. `stop` ends it at once, its request
   * cut wherever it stands (the iteration throws; it is not tried again).
   */
  listItems(
    resource: ResourceName,
    query?: Query,
    bounds?: ListBounds,
    stop?: AbortSignal,
  ): AsyncIterable<ListEntry>;
  /** An answer served as bytes: a document's PDF or XML, an attachment's file. */
  file(resource: ResourceName, kind: OperationKind, request: SendRequest): Promise<PlatformFile>;
  /**
   * A GET of `path` (query included) outside the configured variant's contract, for the online
   * check's probes: the answer's status and headers, a 404 or 405 included; never a write.
   */
  peek(resource: ResourceName, path: string): Promise<PeekAnswer>;
  /** The platform's clock, from the `Date` header of its answers; the local clock until the first one. */
  platformNow(): Date;
  /** Platform time minus local time, in milliseconds. */
  skewMs(): number;
  /** Whether no connection to the platform can be made now: since when, and why. */
  outage(): Outage | undefined;
  /**
   * Asks the platform whether it answers (GET /region: every variant has it, no parameters, a
   * short list), over a connection of its own: a backlog of requests, or lists waiting out
   * their time-outs on every pooled connection, never delay the answer of a health check.
   */
  probe(): Promise<void>;
  /** How far the platform's clock has stepped back since this process first saw it. */
  steppedBackMs(): number;
  /** Closes the keep-alive sockets, once the requests in flight have ended. */
  close(): Promise<void>;
  /** Closes every socket now: requests in flight fail (a check whose time ran out). */
  destroy(): Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Reader {
  policy: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  breakers: Breakers;
}

/** The wait before try `nextAttempt` after `error`, or undefined when it must surface. */
function waitBefore(reader: Reader, error: unknown, nextAttempt: number): number | undefined {
  if (!(error instanceof TransientError)) return undefined;
  return retryDelay(reader.policy, nextAttempt, reader.random, error.retryAfterMs);
}

/**
 * One request and the reading of its answer; a GET is tried again while that may help. Only
 * reads go through the breaker: writes are not retried here but by the queue, which waits.
 */
async function exchange<T>(
  transport: Transport,
  reader: Reader,
  prepared: PreparedRequest,
  read: (response: OpenResponse) => Promise<T>,
): Promise<T> {
  const isRead = prepared.method === 'GET';
  if (isRead) reader.breakers.check(prepared);
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await read(await open(transport, prepared));
      if (isRead) reader.breakers.settled(prepared, undefined);
      return answer;
    } catch (error) {
      const wait = isRead ? waitBefore(reader, error, attempt + 1) : undefined;
      if (wait === undefined) {
        if (isRead) reader.breakers.settled(prepared, error);
        throw error;
      }
      await reader.sleep(wait);
    }
  }
}

/** The list's time is up: its request is cut, wherever it stands. */
function outOfTime(context: RequestContext, bounds: ListBounds): Error {
  const { limit } = bounds.seconds;
  return listBoundError(context, bounds.seconds, `the list took longer than ${limit} seconds`);
}

/** The signal that cuts a list's request: its seconds bound, the caller's stop, or both. */
function cutBy(bounds: ListBounds | undefined, stop: AbortSignal | undefined) {
  const deadline =
    bounds === undefined ? undefined : AbortSignal.timeout(bounds.seconds.limit * 1000);
  const signals = [deadline, stop].filter((signal) => signal !== undefined);
  return { deadline, signal: signals.length === 0 ? undefined : AbortSignal.any(signals) };
}

/**
 * A list is tried again from the start only while the caller has seen none of its items;
 * after that, starting over would hand out records twice, so the error surfaces. Its seconds
 * bound runs on real time, not the injected clock: it must cut a request waiting on its socket.
 * A stop cuts it too, and is never tried again.
 */
async function* streamList(
  transport: Transport,
  reader: Reader,
  prepared: PreparedRequest,
  bounds?: ListBounds,
  stop?: AbortSignal,
): AsyncGenerator<ListEntry> {
  reader.breakers.check(prepared);
  const { deadline, signal } = cutBy(bounds, stop);
  // A function, not a narrowed field: the stop may come during any await.
  const stopped = () => stop?.aborted === true;
  for (let attempt = 1; ; attempt++) {
    let handedOut = 0;
    try {
      const response = await open(transport, prepared, signal);
      for await (const item of jsonArrayItems(response, prepared.context, bounds)) {
        handedOut++;
        yield item;
      }
      reader.breakers.settled(prepared, undefined);
      return;
    } catch (caught) {
      if (stopped()) throw caught;
      const error =
        deadline?.aborted === true && bounds !== undefined
          ? outOfTime(prepared.context, bounds)
          : caught;
      const wait = handedOut === 0 ? waitBefore(reader, error, attempt + 1) : undefined;
      if (wait === undefined) {
        reader.breakers.settled(prepared, error);
        throw error;
      }
      await reader.sleep(wait);
      if (stopped()) throw caught;
    }
  }
}

async function* recordsOf(items: AsyncIterable<ListEntry>): AsyncGenerator<PlatformRecord> {
  // Without bounds nothing is set aside: every entry is a record.
  for await (const item of items) if (!('setAside' in item)) yield item.record;
}

export function createPlatformCore(options: PlatformClientOptions): PlatformCore {
  const contract = contractFor(options.variant, options.paths);
  const platformClock = new PlatformClock(options.clock);
  const dispatcherOf = (concurrency: number) =>
    createDispatcher({
      concurrency,
      timeoutMs: options.timeoutMs,
      env: options.env ?? {},
      ...(options.caFile === undefined ? {} : { caFile: options.caFile }),
    });
  const dispatcher = dispatcherOf(options.concurrency);
  // Made at the first probe: sync --once and the CLI's other commands never probe.
  let probes: Transport | undefined;
  const transport: Transport = {
    baseUrl: new URL(options.baseUrl),
    apiKey: options.apiKey,
    dispatcher,
    clock: options.clock,
    platformClock,
  };
  const reader: Reader = {
    policy: options.retry ?? DEFAULT_READ_RETRY,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    breakers: new Breakers(options.clock, options.outageChanged),
  };
  const prepareFor = (resource: ResourceName, kind: OperationKind, request: SendRequest = {}) =>
    prepare(contract, options.apiKey, resource, kind, request);
  // By the answer's identity: the records are garbage-collected with their statuses.
  const writeStatuses = new WeakMap<PlatformRecord, number>();
  const readAnswer = async (prepared: PreparedRequest, response: OpenResponse) => {
    const record = await readRecord(response, prepared.context);
    if (prepared.method !== 'GET') writeStatuses.set(record, response.status);
    return record;
  };

  return {
    contract,
    send: async (resource, kind, request) => {
      const prepared = prepareFor(resource, kind, request);
      return exchange(transport, reader, prepared, (r) => readJson(r, prepared.context));
    },
    record: async (resource, kind, request) => {
      const prepared = prepareFor(resource, kind, request);
      return exchange(transport, reader, prepared, (r) => readAnswer(prepared, r));
    },
    answerStatus: (record) => writeStatuses.get(record),
    list: (resource, query = {}) =>
      recordsOf(streamList(transport, reader, prepareFor(resource, 'list', { query }))),
    listItems: (resource, query = {}, bounds, stop) =>
      streamList(transport, reader, prepareFor(resource, 'list', { query }), bounds, stop),
    file: async (resource, kind, request) => {
      const prepared = prepareFor(resource, kind, request);
      return exchange(transport, reader, prepared, (r) => readFile(r, prepared.context));
    },
    peek: (resource, path) => peek(transport, resource, path),
    platformNow: () => platformClock.platformNow(),
    skewMs: () => platformClock.skewMs(),
    outage: () => reader.breakers.outage(),
    probe: async () => {
      probes ??= { ...transport, dispatcher: dispatcherOf(1) };
      const prepared = prepareFor('region', 'list');
      await exchange(probes, reader, prepared, (r) => readJson(r, prepared.context));
    },
    steppedBackMs: () => platformClock.steppedBackMs(),
    close: async () => {
      await Promise.all([dispatcher.close(), probes?.dispatcher.close()]);
    },
    destroy: async () => {
      await Promise.all([dispatcher.destroy(), probes?.dispatcher.destroy()]);
    },
  };
}
