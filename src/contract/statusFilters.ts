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
