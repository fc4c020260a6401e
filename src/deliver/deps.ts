/**
 * What the deliver stage is given by the composition root, in a file of its own: deliver.ts
 * builds the handlers from it and outbound.ts prepares each hand-over with it, and deliver.ts
 * imports outbound.ts, so neither may hold it without the two importing each other.
 */
import type { Logger } from 'pino';
import type { Contract, ResourceName } from '../contract/index.js';
import type { ErpAdapter, OutboundRecord } from '../erp/adapter.js';
import type { Store } from '../store/index.js';
import type { Reference } from './enrich.js';

export interface DeliverDeps {
  store: Store;
  adapter: ErpAdapter;
  contract: Contract;
  logger: Logger;
  /**
   * Fetches the records the mirror lacks by their ids and stores those found in the mirror;
   * answers the fetches that failed, by `mirrorKey`.
   */
  fetchReferences(references: readonly Reference[]): Promise<ReadonlyMap<string, unknown>>;
  /** The binary companions of a record (a document's PDF and XML, an attachment's file). */
  filesOf(
    resource: ResourceName,
    record: Record<string, unknown>,
  ): Promise<OutboundRecord['files']>;
  /** Most records in one hand-over (one batch file), for adapters that take batches. */
  batchSize: number;
}
