import type { ResourceName } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import { upsertMirror } from '../../store/index.js';
import type { HandlerContext } from '../types.js';
import type { Body } from './payload.js';

function versionOf(record: Body, context: HandlerContext): string {
  for (const field of ['timestamp', 'updatedAt', 'updated']) {
    const value = record[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return context.clock.now().toISOString();
}

/**
 * Keeps what the platform answered in the mirror, so the next job about the entity finds it
 * (a PUT instead of a second POST, the current order status). `sent` fills in what a short
 * answer (`{_id, updated}`) leaves out.
 */
export function remember(
  context: HandlerContext,
  resource: ResourceName,
  answer: PlatformRecord,
  sent: Body = {},
): void {
  const record = { ...sent, ...answer };
  const id = record._id;
  // The answer's own stamp: the ERP's message may carry an older one of its own.
  if (typeof id !== 'string' || id === '') {
    context.logger.warn({ resource }, 'the platform answered a write without _id; not mirrored');
    return;
  }
  upsertMirror(context.store, resource, { ...record, _id: id }, versionOf(answer, context));
}
