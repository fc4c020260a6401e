import type { z } from 'zod';
import { valueAt } from '../../shared/objects.js';
import type { ResourceName } from '../resources.js';

/**
 * Which fields identify a record and its version, per resource. Most entities carry `_id` and
 * `timestamp`; a few lists (history, documents, attachments, customer mappings) carry others.
 */
interface Identity {
  id: readonly string[];
  version: readonly string[];
}

const DEFAULT_IDENTITY: Identity = { id: ['_id'], version: ['timestamp', 'updatedAt'] };

export const RECORD_IDENTITY: Partial<Record<ResourceName, Identity>> = {
  patientHistory: { id: ['entity', 'entityId', 'createdAt', 'status'], version: ['createdAt'] },
  document: { id: ['_id'], version: ['updatedAt', 'createdAt'] },
  attachment: { id: ['_id'], version: ['metadata.updatedAt', 'uploadDate', 'metadata.createdAt'] },
  patientCustomerMapping: { id: ['_id'], version: ['updatedAt'] },
};

const present = (value: unknown): value is string | number =>
  (typeof value === 'string' && value !== '') || typeof value === 'number';

/** The identity of a record as one text (`_id`, or e.g. `entity/entityId/createdAt/status`). */
export function recordIdOf(
  resource: ResourceName,
  record: Record<string, unknown>,
): string | undefined {
  const identity = RECORD_IDENTITY[resource] ?? DEFAULT_IDENTITY;
  const parts = identity.id.map((field) => valueAt(record, field));
  return parts.every(present) ? parts.map(String).join('/') : undefined;
}

function versionIn(identity: Identity, record: Record<string, unknown>): string | undefined {
  const version = identity.version.map((field) => valueAt(record, field)).find(present);
  return version === undefined ? undefined : String(version);
}

/** What the ledger knows a record version by. */
export interface RecordVersion {
  id: string;
  version: string;
}

/**
 * The identity and version of a record as the platform sent it, read without checking the rest
 * of it (as `checkRecord` reads them): enough to tell a version already seen from a new one.
 * Undefined when either is missing.
 */
export function recordVersionOf(
  resource: ResourceName,
  record: Record<string, unknown>,
): RecordVersion | undefined {
  const id = recordIdOf(resource, record);
  const version = versionIn(RECORD_IDENTITY[resource] ?? DEFAULT_IDENTITY, record);
  return id === undefined || version === undefined ? undefined : { id, version };
}

export type RecordCheck =
  | { ok: true; id: string; version: string; record: Record<string, unknown> }
  | { ok: false; id: string | undefined; reason: string };

/**
 * Validates one record of `resource` as the platform returned it and finds its identity and
 * version. A record that fails is quarantined by the caller with `reason`.
 */
export function checkRecord(
  resource: ResourceName,
  schema: z.ZodType<Record<string, unknown>>,
  raw: unknown,
): RecordCheck {
  const identity = RECORD_IDENTITY[resource] ?? DEFAULT_IDENTITY;
  const rawRecord = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const id = recordIdOf(resource, rawRecord);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.map(String).join('.') || '(record)'}: ${i.message}`);
    return {
      ok: false,
      id,
      reason: `${resource} record does not match the contract: ${first.join('; ')}`,
    };
  }
  if (id === undefined) {
    return { ok: false, id, reason: `${resource} record has no ${identity.id.join(' + ')}` };
  }
  const version = versionIn(identity, rawRecord);
  if (version === undefined) {
    return {
      ok: false,
      id,
      reason: `${resource} record ${id} has none of ${identity.version.join(', ')}`,
    };
  }
  return { ok: true, id, version, record: parsed.data };
}
