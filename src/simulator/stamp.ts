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
