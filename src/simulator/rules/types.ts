import type { ResourceName } from '../../contract/index.js';
import type { CallContext } from '../api/context.js';
import { conflict } from '../httpError.js';
import type { LookupField } from '../store/recordStore.js';

export type ChangeKind = 'replace' | 'update';

/**
 * A resource's own write rules. `create` shapes a create body into the record to store;
 * `change` merges a PUT or PATCH body with the stored record. Both throw SimHttpError to refuse.
 * Base fields are stamped afterwards by the caller.
 */
export interface WriteRules {
  /** Refuses a caller before its body is read (403 for keys without the right). */
  authorize?(ctx: CallContext): void;
  create?(ctx: CallContext, body: Record<string, unknown>): Record<string, unknown>;
  change?(
    ctx: CallContext,
    body: Record<string, unknown>,
    stored: Record<string, unknown>,
    kind: ChangeKind,
  ): Record<string, unknown>;
  /** Identifiers other than UUID v4 (attachments have opaque ones). */
  newId?(): string;
  /** A file a create carries, kept beside the record (attachments). */
  file?(body: Record<string, unknown>): { contentType: string; data: Buffer };
}

/** PUT replaces the record, PATCH merges into it. */
export function mergeByKind(
  body: Record<string, unknown>,
  stored: Record<string, unknown>,
  kind: ChangeKind,
): Record<string, unknown> {
  return kind === 'update' ? { ...stored, ...body } : { ...body };
}

export function objectsIn(value: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v),
  );
}

/** A field value as text for comparisons and messages; objects as JSON, not "[object Object]". */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

/** The field no two records of a resource share within a tenant, and how a message names one. */
const UNIQUE_KEYS = {
  article: { field: 'customerNumber', named: 'an article' },
  patient: { field: 'customerId', named: 'a patient' },
} as const satisfies Partial<Record<ResourceName, { field: LookupField; named: string }>>;

/**
 * Refuses (409, with the `existingIds` the platform's error carries) a write that would give
 * `value` to the unique field of `resource` while another record of the caller's tenant holds it.
 */
export function refuseTakenKey(
  ctx: CallContext,
  resource: keyof typeof UNIQUE_KEYS,
  value: unknown,
  ownId: unknown,
): void {
  if (typeof value !== 'string' || value === '') return;
  const { field, named } = UNIQUE_KEYS[resource];
  const existingIds = ctx.store
    .findBy(ctx.caller.tenant, resource, field, value)
    .map((s) => s.record._id)
    .filter((id) => id !== ownId);
  if (existingIds.length === 0) return;
  throw conflict(
    `${named} with ${field} "${value}" already exists in this tenant; update it instead`,
    [`${field}: "${value}" is used by ${resource} ${existingIds.join(', ')}`],
    { existingIds },
  );
}
