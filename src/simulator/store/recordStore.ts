import type Database from 'better-sqlite3';
import { recordIdOf, type ResourceName } from '../../contract/index.js';
import { statusClassOf } from '../statusClass.js';
import { openSimulatorDatabase } from './schema.js';
import { listRows, type ListClause, type ListOptions } from './listQuery.js';

export type { ListClause, ListOptions } from './listQuery.js';

/** What the simulator keeps beside a record: who changed it last, and whether a client took it. */
export interface RecordMeta {
  /** The client whose API write made the last change; null after a platform user's change. */
  changedByClient: string | null;
  /** A client's PATCH has acknowledged this order or care arrangement (it left `created`). */
  acknowledged: boolean;
}

export interface StoredRecord extends RecordMeta {
  record: Record<string, unknown>;
}

export type LookupField = 'customerNumber' | 'salesId' | 'customerId';
const LOOKUP_COLUMN: Record<LookupField, string> = {
  customerNumber: 'customer_number',
  salesId: 'sales_id',
  customerId: 'customer_id',
};

interface Row {
  json: string;
  changed_by_client: string | null;
  acknowledged: number;
}

function isoOrEmpty(value: unknown): string {
  if (typeof value !== 'string') return '';
  const time = Date.parse(value);
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

function metadataOf(record: Record<string, unknown>): Record<string, unknown> {
  const metadata = record.metadata;
  return metadata !== null && typeof metadata === 'object'
    ? (metadata as Record<string, unknown>)
    : {};
}

function toStored(row: Row): StoredRecord {
  return {
    record: JSON.parse(row.json) as Record<string, unknown>,
    changedByClient: row.changed_by_client,
    acknowledged: row.acknowledged === 1,
  };
}

/** The simulator's state: every tenant's records in one in-memory SQLite database. */
export class RecordStore {
  private readonly db: Database.Database;
  private seq = 0;
  private lists = 0;
  private readonly upsert: Database.Statement;
  private readonly byId: Database.Statement<[string, string, string], Row>;
  private readonly lookups: Record<LookupField, Database.Statement<[string, string, string], Row>>;

  constructor() {
    this.db = openSimulatorDatabase();
    this.upsert = this.db.prepare(`INSERT OR REPLACE INTO records VALUES (
      @tenant, @resource, @id, @seq, @timestamp, @createdAt, @archived, @statusClass,
      @customerNumber, @salesId, @customerId, @serialNumber, @patientId, @acknowledged,
      @changedByClient, @suppressNext, NULL, @json)`);
    this.byId = this.db.prepare(
      'SELECT json, changed_by_client, acknowledged FROM records WHERE tenant = ? AND resource = ? AND id = ?',
    );
    const lookup = (field: LookupField) =>
      this.db.prepare<[string, string, string], Row>(
        `SELECT json, changed_by_client, acknowledged FROM records
         WHERE tenant = ? AND resource = ? AND ${LOOKUP_COLUMN[field]} = ?`,
      );
    this.lookups = {
      customerNumber: lookup('customerNumber'),
      salesId: lookup('salesId'),
      customerId: lookup('customerId'),
    };
  }

  put(
    tenant: string,
    resource: ResourceName,
    record: Record<string, unknown>,
    meta: RecordMeta,
  ): void {
    const metadata = metadataOf(record);
    // History entries carry neither `_id` nor `timestamp`: their identity and creation time count.
    const timestamp = isoOrEmpty(
      record.timestamp ??
        record.updatedAt ??
        metadata.updatedAt ??
        record.uploadDate ??
        record.createdAt,
    );
    this.upsert.run({
      tenant,
      resource,
      id: recordIdOf(resource, record) ?? String(record._id),
      seq: ++this.seq,
      timestamp,
      createdAt:
        isoOrEmpty(record.createdAt ?? metadata.createdAt ?? record.uploadDate) || timestamp,
      archived: record.archived === true || metadata.archived === true ? 1 : 0,
      statusClass: statusClassOf(resource, record, meta.acknowledged),
      customerNumber: textOrNull(record.customerNumber),
      salesId: textOrNull(record.salesId),
      customerId: textOrNull(record.customerId),
      serialNumber: textOrNull(record.serialNumber),
      patientId: textOrNull(record.patientId ?? metadata.patientId),
      acknowledged: meta.acknowledged ? 1 : 0,
      changedByClient: meta.changedByClient,
      suppressNext: meta.changedByClient === null ? 0 : 1,
      json: JSON.stringify(record),
    });
  }

  /** Runs `work` in one transaction: seeding 150,000 records is one commit, not 150,000. */
  transaction(work: () => void): void {
    this.db.transaction(work)();
  }

  get(tenant: string, resource: ResourceName, id: string): StoredRecord | undefined {
    const row = this.byId.get(tenant, resource, id);
    return row ? toStored(row) : undefined;
  }

  findBy(
    tenant: string,
    resource: ResourceName,
    field: LookupField,
    value: string,
  ): StoredRecord[] {
    return this.lookups[field].all(tenant, resource, value).map(toStored);
  }

  /** The records a list returns, as stored JSON text, ordered by timestamp then _id. */
  list(
    tenant: string,
    resource: ResourceName,
    clauses: readonly ListClause[],
    options: ListOptions,
  ): Generator<string> {
    const listId = ++this.lists;
    return listRows(this.db, { tenant, resource, clauses, options, seqCap: this.seq, listId });
  }

  putFile(tenant: string, id: string, contentType: string, data: Buffer): void {
    this.db
      .prepare('INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)')
      .run(tenant, id, contentType, data);
  }

  getFile(tenant: string, id: string): { contentType: string; data: Buffer } | undefined {
    const row = this.db
      .prepare<[string, string], { content_type: string; data: Buffer }>(
        'SELECT content_type, data FROM files WHERE tenant = ? AND id = ?',
      )
      .get(tenant, id);
    return row ? { contentType: row.content_type, data: row.data } : undefined;
  }

  clear(): void {
    this.db.exec('DELETE FROM records; DELETE FROM files;');
  }

  close(): void {
    this.db.close();
  }
}
