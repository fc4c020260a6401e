import type { Logger } from 'pino';
import type { Contract, ResourceName } from '../contract/index.js';
import type { ErpAdapter, OutboundRecord } from '../erp/adapter.js';
import type { NewJob } from '../queue/types.js';
import type { Store } from '../store/index.js';
import {
  getMirror,
  markDelivered,
  setAckState,
  setWaitingFor,
  transaction,
  undelivered,
  type LedgerEntry,
} from '../store/index.js';
import { acknowledgementOf } from './acknowledge.js';
import { enrich, type Reference } from './enrich.js';

export interface DeliverDeps {
  store: Store;
  adapter: ErpAdapter;
  contract: Contract;
  logger: Logger;
  /** Queues a job in the caller's transaction (the queue's `enqueue`). */
  enqueue(job: NewJob): void;
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

const REJECTED = 'rejected by the ERP: ';

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

/**
 * Hands every record version that is in the ledger but not yet delivered to the ERP, in the
 * order it was seen, enriched with the ERP's keys. A version is marked delivered in the same
 * transaction that queues its acknowledgement, so a crash cannot leave an order delivered but
 * never acknowledged, nor acknowledged before the ERP has it. A version whose references are
 * missing waits (and so do the later versions of the same entity), and says what it waits for.
 */
export async function deliverOnce(deps: DeliverDeps): Promise<DeliverSummary> {
  const summary: DeliverSummary = { delivered: 0, waiting: 0, retry: 0, rejected: 0 };
  const pending = undelivered(deps.store, deps.batchSize).filter(
    (e) => !e.waitingFor?.startsWith(REJECTED),
  );
  for (const group of batches(pending)) await deliverBatch(deps, group, summary);
  return summary;
}

async function deliverBatch(
  deps: DeliverDeps,
  group: readonly LedgerEntry[],
  summary: DeliverSummary,
): Promise<void> {
  const held = new Set<string>();
  const ready: Array<{ entry: LedgerEntry; outbound: OutboundRecord }> = [];
  for (const entry of group) {
    if (held.has(entityOf(entry))) continue;
    let outbound: OutboundRecord | Reference[];
    try {
      outbound = await enriched(deps, entry);
    } catch (error) {
      // A reference or a file could not be fetched now; this entity waits for the next round.
      held.add(entityOf(entry));
      summary.retry += 1;
      deps.logger.warn(
        { resource: entry.resource, _id: entry.id, err: error },
        'delivery postponed: a reference or file could not be fetched',
      );
      continue;
    }
    if (Array.isArray(outbound)) {
      held.add(entityOf(entry));
      summary.waiting += 1;
      const waitingFor = outbound.map((r) => `${r.resource} ${r.id}`).join(', ');
      setWaitingFor(deps.store, entry.resource, entry.id, entry.version, `missing ${waitingFor}`);
      deps.logger.warn(
        { resource: entry.resource, _id: entry.id, waitingFor },
        'record waits for references not yet known',
      );
      continue;
    }
    ready.push({ entry, outbound });
  }
  if (ready.length === 0) return;
  const runId = String(ready[0]?.entry.runId ?? 'adhoc');
  const outcomes = await deps.adapter.deliver(
    ready.map((r) => r.outbound),
    runId,
  );
  ready.forEach(({ entry, outbound }, index) => {
    const outcome = outcomes[index] ?? {
      status: 'retry' as const,
      reason: 'the adapter gave no outcome',
    };
    if (outcome.status === 'delivered') {
      summary.delivered += 1;
      transaction(deps.store, () => {
        markDelivered(deps.store, entry.resource, entry.id, entry.version);
        setWaitingFor(deps.store, entry.resource, entry.id, entry.version, undefined);
        const ack = acknowledgementOf(deps.contract, outbound);
        if (ack) {
          deps.enqueue(ack);
          setAckState(deps.store, entry.resource, entry.id, entry.version, 'queued');
        }
      });
    } else if (outcome.status === 'retry') {
      summary.retry += 1;
      deps.logger.warn(
        { resource: entry.resource, _id: entry.id, reason: outcome.reason },
        'delivery to the ERP will be retried',
      );
    } else {
      summary.rejected += 1;
      setWaitingFor(
        deps.store,
        entry.resource,
        entry.id,
        entry.version,
        `${REJECTED}${outcome.reason}`,
      );
      deps.logger.error(
        {
          resource: entry.resource,
          _id: entry.id,
          reason: outcome.reason,
          httpStatus: outcome.httpStatus,
        },
        'the ERP refused the record; it is kept and shown by status',
      );
    }
  });
}
