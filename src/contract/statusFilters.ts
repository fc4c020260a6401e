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
