import { ORDER_STATUS, STAMP_FIELDS } from '../contract/index.js';
import type { PlatformClient, PlatformRecord } from '../platform/index.js';
import { ORDER_RESOURCES, type OrderResource } from './erpAnswers.js';

/** A seeded order per kind whose patient, care arrangement and articles new orders reuse. */
export type OrderTemplates = Partial<Record<OrderResource, PlatformRecord>>;

/** What the platform gives every order itself, or what only comes later in the cycle. */
const NOT_COPIED = new Set([
  ...STAMP_FIELDS,
  'salesId',
  'erpOrderNumber',
  'orderNumber',
  'transmittedAt',
  'trackingInfo',
  'status',
  'archived',
]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A new Created order like `template`: the same patient, care arrangement, delivery address
 * and articles (so the daemon's enrichment finds them all), with fresh line ids.
 */
export function newOrderFrom(
  template: PlatformRecord,
  now: Date,
  newId: () => string,
): Record<string, unknown> {
  const copied = Object.entries(template).filter(([field]) => !NOT_COPIED.has(field));
  const lines = Array.isArray(template['orderedArticleLines'])
    ? template['orderedArticleLines'].filter(isObject)
    : [];
  return {
    ...Object.fromEntries(copied),
    status: ORDER_STATUS.Created,
    archived: false,
    creationDate: now.toISOString(),
    orderedArticleLines: lines
      .filter((line) => line['archived'] !== true)
      .map((line) => ({
        ...line,
        _id: newId(),
        deliveredQuantity: 0,
        timestamp: now.toISOString(),
      })),
  };
}

function usable(resource: OrderResource, order: PlatformRecord): boolean {
  const lines = Array.isArray(order['orderedArticleLines']) ? order['orderedArticleLines'] : [];
  const careNeeded = resource === 'singleOrder';
  return (
    typeof order['patientId'] === 'string' &&
    (!careNeeded || typeof order['integratedCareId'] === 'string') &&
    lines.length > 0
  );
}

/**
 * Reads the platform's Created orders (with a key other than the daemon's, as another user of
 * the platform would see them) and keeps the first usable one of each kind.
 */
export async function findTemplates(client: PlatformClient): Promise<OrderTemplates> {
  const templates: OrderTemplates = {};
  const query = { status: 'created', updatedAfter: new Date(0) } as const;
  for (const resource of ORDER_RESOURCES) {
    const list =
      resource === 'singleOrder' ? client.listSingleOrders(query) : client.listDirectOrders(query);
    for await (const order of list) {
      if (templates[resource] === undefined && usable(resource, order)) templates[resource] = order;
    }
  }
  return templates;
}
