import type { Logger } from 'pino';
import type { Contract, ResourceName } from '../contract/index.js';
import type { ErpAdapter, OutboundRecord } from '../erp/adapter.js';
import type { RetrySettings } from '../queue/outcome.js';
import type { DeliveryRef } from '../queue/deadDelivery.js';
import type { NewJob } from '../queue/types.js';
import type { Clock } from '../shared/clock.js';
import type { NewDeadLetter, Store } from '../store/index.js';
import { getMirror, setWaitingFor, undelivered, type LedgerEntry } from '../store/index.js';
import { settleOutcome, postpone } from './deliveryOutcome.js';
import { enrich, type Reference } from './enrich.js';

export interface DeliverDeps {
  store: Store;
  adapter: ErpAdapter;
  contract: Contract;
  clock: Clock;
  logger: Logger;
  /** Delivery is retried like a queue job: back-off with jitter, then a dead letter. */
  retry: RetrySettings & { maxAttempts: number };
  random: () => number;
  /** Queues a job in the caller's transaction (the queue's `enqueue`). */
  enqueue(job: NewJob): void;
  /** Puts a version the ERP will not take into the dead letters (the queue's). */
  deadLetter(ref: DeliveryRef, attempts: number, letter: NewDeadLetter): void;
  /** Fetches a record the mirror lacks by its id and stores it in the mirror; false when it cannot. */
  fetchReference(reference: Reference): Promise<boolean>;
  /** The binary companions of a record (a document's PDF and XML, an attachment's file). */
  filesOf(
    resource: ResourceName,
    record: Record<string, unknown>,
  ): Promise<OutboundRecord['files']>;
  batchSize: number;
}

export interface DeliverSummary {
  delivered: number;
  waiting: number;
  retry: number;
  rejected: number;
}

function recordOf(entry: LedgerEntry): Record<string, unknown> {
  return entry.json === undefined ? {} : (JSON.parse(entry.json) as Record<string, unknown>);
}

const entityOf = (entry: LedgerEntry): string => `${entry.resource}:${entry.id}`;

async function enriched(
  deps: DeliverDeps,
  entry: LedgerEntry,
): Promise<OutboundRecord | Reference[]> {
  const resource = entry.resource as ResourceName;
  const lookup = (r: ResourceName, id: string) => getMirror(deps.store, r, id)?.record;
  let result = enrich(resource, recordOf(entry), lookup);
  if (!result.ok) {
    for (const reference of result.missing) await deps.fetchReference(reference);
    result = enrich(resource, recordOf(entry), lookup);
    if (!result.ok) return result.missing;
  }
  const files = await deps.filesOf(resource, result.record);
  return {
    resource,
    id: entry.id,
    version: entry.version,
    record: result.record,
    ...(files ? { files } : {}),
  };
}

/** Groups entries by pull run and resource, keeping the ledger's order. */
function batches(entries: readonly LedgerEntry[]): LedgerEntry[][] {
  const groups = new Map<string, LedgerEntry[]>();
  for (const entry of entries) {
    const key = `${entry.resource}/${entry.runId ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.values()];
}

/** One round's shared state: entities held back keep their later versions back too. */
interface Round {
  held: Set<string>;
  summary: DeliverSummary;
}

/**
 * Hands every record version that is in the ledger but not yet delivered to the ERP, in the
 * order it was seen, enriched with the ERP's keys. A version is marked delivered in the same
 * transaction that queues its acknowledgement, so a crash cannot leave an order delivered but
 * never acknowledged, nor acknowledged before the ERP has it. A version that waits — for a
 * missing reference, or for its next try after a failed hand-over — holds back the later
 * versions of the same record. A version the ERP refused is in the dead letters and is left
 * out until an operator replays it.
 */
export async function deliverOnce(deps: DeliverDeps): Promise<DeliverSummary> {
  const round: Round = {
    held: new Set(),
    summary: { delivered: 0, waiting: 0, retry: 0, rejected: 0 },
  };
  const pending = undelivered(deps.store, deps.batchSize).filter((e) => e.rejection === undefined);
  for (const group of batches(pending)) await deliverBatch(deps, group, round);
  return round.summary;
}

async function prepared(
  deps: DeliverDeps,
  entry: LedgerEntry,
  round: Round,
): Promise<OutboundRecord | undefined> {
  const now = deps.clock.now().toISOString();
  if (entry.nextDeliveryAt !== undefined && entry.nextDeliveryAt > now) {
    round.summary.retry += 1;
    return undefined;
  }
  let outbound: OutboundRecord | Reference[];
  try {
    outbound = await enriched(deps, entry);
  } catch (error) {
    const reason = `a reference or file could not be fetched: ${String(error)}`;
    round.summary[postpone(deps, entry, { status: 'retry', reason })] += 1;
    return undefined;
  }
  if (!Array.isArray(outbound)) return outbound;
  round.summary.waiting += 1;
  const waitingFor = outbound.map((r) => `${r.resource} ${r.id}`).join(', ');
  setWaitingFor(deps.store, entry.resource, entry.id, entry.version, `missing ${waitingFor}`);
  deps.logger.warn(
    { resource: entry.resource, _id: entry.id, waitingFor },
    'record waits for references not yet known',
  );
  return undefined;
}

async function deliverBatch(
  deps: DeliverDeps,
  group: readonly LedgerEntry[],
  round: Round,
): Promise<void> {
  const ready: Array<{ entry: LedgerEntry; outbound: OutboundRecord }> = [];
  for (const entry of group) {
    if (round.held.has(entityOf(entry))) continue;
    const outbound = await prepared(deps, entry, round);
    if (outbound) ready.push({ entry, outbound });
    else round.held.add(entityOf(entry));
  }
  if (ready.length === 0) return;
  const outcomes = await deps.adapter.deliver(
    ready.map((r) => r.outbound),
    String(ready[0]?.entry.runId ?? 'adhoc'),
  );
  ready.forEach(({ entry, outbound }, index) => {
    const outcome = outcomes[index] ?? {
      status: 'retry' as const,
      reason: 'the adapter gave no outcome',
    };
    const counted = settleOutcome(deps, entry, outbound, outcome);
    round.summary[counted] += 1;
    if (counted !== 'delivered') round.held.add(entityOf(entry));
  });
}
