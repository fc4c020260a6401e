import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import type { OrderResource } from './erpAnswers.js';
import { tickLoop, type TickLoop } from './loop.js';
import { newOrderFrom, type OrderTemplates } from './orderTemplate.js';
import type { CreateOnPlatform } from './simControl.js';

export interface PlatformActivityOptions {
  templates: OrderTemplates;
  create: CreateOnPlatform;
  intervalMs: number;
  clock: Clock;
  say: (line: string) => void;
  newId?: () => string;
}

export interface CreatedOrder {
  resource: OrderResource;
  id: string;
}

export interface PlatformActivity extends TickLoop {
  created(): CreatedOrder[];
}

/**
 * A stand-in for the people who use the platform: each tick it places a new order, single
 * and direct in turn, so the demo keeps moving after the seeded orders are through.
 */
export function createPlatformActivity(options: PlatformActivityOptions): PlatformActivity {
  const kinds = (['singleOrder', 'directOrder'] as const).filter((r) => options.templates[r]);
  const newId = options.newId ?? randomUUID;
  const created: CreatedOrder[] = [];

  async function tick(): Promise<void> {
    const resource = kinds[created.length % kinds.length];
    const template = resource && options.templates[resource];
    if (!resource || !template) return;
    const record = newOrderFrom(template, options.clock.now(), newId);
    const stored = await options.create(resource, record);
    const id = String(stored['_id']);
    created.push({ resource, id });
    const kind = resource === 'singleOrder' ? 'single' : 'direct';
    options.say(`platform user: placed a new ${kind} order ${id}`);
  }

  const loop = tickLoop(tick, options.intervalMs, options.clock, (error) =>
    options.say(`platform user: ${errorMessage(error)}; trying again`),
  );
  return { ...loop, created: () => [...created] };
}
