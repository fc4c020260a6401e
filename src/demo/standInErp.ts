import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import { dropInboxFile } from './dropFile.js';
import {
  answersFor,
  isNewOrder,
  ORDER_RESOURCES,
  type OrderResource,
  type OutboxOrder,
} from './erpAnswers.js';
import { tickLoop, type TickLoop } from './loop.js';

export interface StandInErpOptions {
  /** The daemon's outbox and inbox (erp.file.outbox, erp.file.inbox). */
  outbox: string;
  inbox: string;
  /** Write `<file>.done` after each message, when the daemon waits for markers. */
  doneMarker: boolean;
  intervalMs: number;
  clock: Clock;
  /** One plain line per answer. */
  say: (line: string) => void;
}

/** An order the stand-in ERP took, and how far it has answered it. */
export interface TakenOrder {
  resource: OrderResource;
  id: string;
  salesId: string;
  /** Answers dropped so far, and how many there are in all. */
  answered: number;
  answers: number;
  /** The inbox files it wrote for this order, by kind and name. */
  files: string[];
}

export interface StandInErp extends TickLoop {
  orders(): TakenOrder[];
}

interface Taken extends TakenOrder {
  order: OutboxOrder;
}

async function orderFiles(folder: string): Promise<string[]> {
  try {
    const names = await readdir(folder);
    // Dot files are the daemon's temp files; markers and companions are not orders.
    return names.filter((name) => !name.startsWith('.') && name.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * A stand-in for the customer's ERP on the file drop: it watches the outbox for single and
 * direct orders that are still Created, and walks each through the order cycle by dropping
 * one answer per tick into the inbox (Processed with a salesId, the ERP order with tracking,
 * Sent, Delivered). It remembers the orders it took, so later versions of an order (the
 * daemon writes one per change) are not answered again. Memory only: a new stand-in starts
 * over, which is why the demo starts from an empty outbox.
 */
export function createStandInErp(options: StandInErpOptions): StandInErp {
  const seenFiles = new Set<string>();
  const known = new Map<string, Taken | 'left alone'>();
  let nextSalesNumber = 1;

  async function answerNext(taken: Taken): Promise<void> {
    const answers = answersFor(taken.resource, taken.order, taken.salesId, options.clock.now());
    const answer = answers[taken.answered];
    if (!answer) return;
    await dropInboxFile(options.inbox, answer, options.doneMarker);
    taken.answered += 1;
    taken.files.push(`${answer.kind}/${answer.name}`);
    options.say(`stand-in ERP: ${answer.says}`);
  }

  async function take(resource: OrderResource, path: string): Promise<void> {
    let order: OutboxOrder;
    try {
      order = JSON.parse(await readFile(path, 'utf8')) as OutboxOrder;
    } catch (error) {
      options.say(`stand-in ERP: cannot read ${path} (${errorMessage(error)}); skipped`);
      return;
    }
    const id = typeof order['_id'] === 'string' ? order['_id'] : undefined;
    if (id === undefined || known.has(id)) return;
    if (!isNewOrder(order)) {
      known.set(id, 'left alone');
      return;
    }
    const salesId = `SO-${nextSalesNumber++}`;
    const answers = answersFor(resource, order, salesId, options.clock.now()).length;
    known.set(id, { resource, id, salesId, answered: 0, answers, files: [], order });
  }

  async function discover(): Promise<void> {
    for (const resource of ORDER_RESOURCES) {
      const folder = join(options.outbox, resource);
      for (const name of await orderFiles(folder)) {
        const path = join(folder, name);
        if (seenFiles.has(path)) continue;
        seenFiles.add(path);
        await take(resource, path);
      }
    }
  }

  const taken = (): Taken[] => [...known.values()].filter((t): t is Taken => t !== 'left alone');

  // Orders found in this tick get their first answer in the next one, after the daemon has
  // queued the order's acknowledgement.
  async function tick(): Promise<void> {
    for (const order of taken()) await answerNext(order);
    await discover();
  }

  const loop = tickLoop(tick, options.intervalMs, options.clock, (error) =>
    options.say(`stand-in ERP: ${errorMessage(error)}; trying again`),
  );
  return {
    ...loop,
    orders: () =>
      taken().map(({ order: _order, files, ...rest }) => ({ ...rest, files: [...files] })),
  };
}
