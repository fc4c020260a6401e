/** The `status` filter values of list endpoints (spec document 1, "Change-status filters"). */
export const STATUS_FILTERS = {
  singleOrder: ['created', 'transmitted', 'updated', 'archived'],
  directOrder: ['created', 'transmitted', 'updated', 'archived'],
  integratedCare: ['created', 'transmitted', 'deactivated', 'archived'],
  article: ['created', 'updated', 'archived'],
  users: ['active', 'archived'],
} as const;

export type StatusFilterResource = keyof typeof STATUS_FILTERS;
export type StatusFilter = (typeof STATUS_FILTERS)[StatusFilterResource][number];

/**
 * Resources whose synchronisation is controlled by status, not by the API key (spec document 1,
 * "Incremental synchronisation", rule 3): a client's own changes to them are not left out of its
 * pulls; they move between status filters instead.
 */
export const STATUS_CONTROLLED = ['singleOrder', 'directOrder', 'integratedCare'] as const;

export function isStatusControlled(resource: string): boolean {
  return (STATUS_CONTROLLED as readonly string[]).includes(resource);
}

/**
 * The fields whose change is the "status change" of rule 3: the order status, and for a care
 * arrangement its status and its transmission status (seriesStatus).
 */
const STATUS_FIELDS: Readonly<Record<string, readonly string[]>> = {
  singleOrder: ['status'],
  directOrder: ['status'],
  integratedCare: ['status', 'seriesStatus'],
};

/** Does a write of `body` over `stored` change the status of a status-controlled record? */
export function changesStatus(
  resource: string,
  body: Readonly<Record<string, unknown>>,
  stored: Readonly<Record<string, unknown>>,
): boolean {
  const fields = STATUS_FIELDS[resource] ?? [];
  return fields.some((field) => body[field] !== undefined && body[field] !== stored[field]);
}
