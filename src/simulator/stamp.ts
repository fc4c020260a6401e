import { randomUUID } from 'node:crypto';

/** The base fields a create sets: `_id` (UUID v4 unless given), audit fields and `timestamp`. */
export function stampCreated(
  record: Record<string, unknown>,
  now: Date,
  by: string,
  id: string = randomUUID(),
): Record<string, unknown> {
  const iso = now.toISOString();
  return {
    ...record,
    _id: id,
    archived: record.archived ?? false,
    createdAt: iso,
    createdBy: by,
    timestamp: iso,
    updatedAt: iso,
    updatedBy: by,
  };
}

/** The base fields every change sets; identity and creation stay as stored. */
export function stampChanged(
  record: Record<string, unknown>,
  stored: Record<string, unknown>,
  now: Date,
  by: string,
): Record<string, unknown> {
  const iso = now.toISOString();
  return {
    ...record,
    _id: stored._id,
    archived: record.archived ?? stored.archived ?? false,
    createdAt: stored.createdAt,
    createdBy: stored.createdBy,
    timestamp: iso,
    updatedAt: iso,
    updatedBy: by,
  };
}

const AUDIT_FIELDS = ['createdAt', 'createdBy', 'updatedAt', 'updatedBy'] as const;

/**
 * An attachment as the platform keeps one (spec document 2, Attachment): its audit fields and
 * `archived` in `metadata`, its upload time in `uploadDate`, no `timestamp`. `stamped` is the
 * record as stampCreated() or stampChanged() made it; a change keeps the stored creation.
 */
export function auditInMetadata(
  stamped: Record<string, unknown>,
  stored?: Record<string, unknown>,
): Record<string, unknown> {
  const rest = { ...stamped };
  const { archived } = rest;
  delete rest.timestamp;
  delete rest.archived;
  const metadata = { ...asObject(stamped.metadata) };
  const storedMetadata = asObject(stored?.metadata);
  for (const field of AUDIT_FIELDS) {
    metadata[field] = field.startsWith('created')
      ? (storedMetadata[field] ?? rest[field])
      : rest[field];
    delete rest[field];
  }
  metadata.archived = archived === true || metadata.archived === true;
  return { ...rest, uploadDate: stamped.uploadDate ?? metadata.createdAt, metadata };
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}
