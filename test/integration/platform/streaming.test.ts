import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../support/eventually.js';
import { clientFor, collect } from '../../support/platform/clientFor.js';
import {
  json,
  startScriptedServer,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const AFTER = '2026-01-01T00:00:00Z';

function order(n: number): string {
  return JSON.stringify({ _id: `order-${n}`, status: 0, annotation: 'x'.repeat(100) });
}

function write(response: ServerResponse, chunk: string): Promise<boolean> {
  if (response.destroyed) return Promise.resolve(false);
  if (response.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (open: boolean) => () => {
      response.off('drain', onDrain);
      response.off('close', onClose);
      resolve(open);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    response.once('drain', onDrain);
    response.once('close', onClose);
  });
}

/** Streams `count` orders, honouring back-pressure; `gate` holds the rest after `gateAt` items. */
function hugeList(
  count: number,
  state: { finished: boolean },
  gate?: { at: number; open: Promise<void> },
) {
  return async (_request: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    if (!(await write(response, '['))) return;
    for (let n = 0; n < count; n++) {
      if (gate !== undefined && n === gate.at) await gate.open;
      if (!(await write(response, (n === 0 ? '' : ',') + order(n)))) return;
    }
    response.end(']');
    state.finished = true;
  };
}

let server: ScriptedServer | undefined;
/** The list's socket closed, and none is left open. */
const socketsClosed = () => server?.openSockets() === 0 && server.socketsClosed() > 0;
afterEach(async () => server?.close());

describe('streamed lists', () => {
  it('hands out all 50,000 items of a long list', async () => {
    const state = { finished: false };
    server = await startScriptedServer(hugeList(50_000, state));
    const { client } = clientFor(server.url);
    let count = 0;
    let last: unknown;
    for await (const item of client.listSingleOrders({ status: 'created', updatedAfter: AFTER })) {
      count++;
      last = item._id;
    }
    expect(count).toBe(50_000);
    expect(last).toBe('order-49999');
    expect(state.finished).toBe(true);
    await client.close();
  });

  it('hands out items while the platform is still sending (nothing is buffered whole)', async () => {
    let open: () => void = () => undefined;
    const gate = { at: 1_000, open: new Promise<void>((resolve) => (open = resolve)) };
    const state = { finished: false };
    server = await startScriptedServer(hugeList(5_000, state, gate));
    const { client } = clientFor(server.url);
    let count = 0;
    for await (const item of client.listSingleOrders({ status: 'created', updatedAfter: AFTER })) {
      if (count === 0) {
        // The server has not sent the whole list; a client that buffered would wait forever here.
        expect(state.finished).toBe(false);
        expect(item._id).toBe('order-0');
        open();
      }
      count++;
    }
    expect(count).toBe(5_000);
    await client.close();
  });

  it('closes the socket when the caller stops early, and the pool stays usable', async () => {
    const state = { finished: false };
    server = await startScriptedServer(hugeList(50_000, state), json(200, [{ _id: 'after' }]));
    const { client } = clientFor(server.url, 'B', { concurrency: 1 });
    const seen: unknown[] = [];
    for await (const item of client.listSingleOrders({ status: 'created', updatedAfter: AFTER })) {
      seen.push(item._id);
      if (seen.length === 10) break;
    }
    expect(seen).toHaveLength(10);
    // undici may open and drop a spare socket; what matters is that none stays open.
    await eventually('the list socket closed', socketsClosed, 10_000);
    expect(state.finished).toBe(false);

    // One connection only: a socket still held by the abandoned list would block this for good.
    const next = await collect(client.listSingleOrders({ status: 'updated', updatedAfter: AFTER }));
    expect(next).toEqual([{ _id: 'after' }]);
    await client.close();
  });

  it('closes the socket when the caller throws out of the loop', async () => {
    const state = { finished: false };
    server = await startScriptedServer(hugeList(50_000, state));
    const { client } = clientFor(server.url, 'B', { concurrency: 1 });
    await expect(
      (async () => {
        for await (const item of client.listPatients())
          throw new Error(`caller gave up at ${String(item._id)}`);
      })(),
    ).rejects.toThrow('caller gave up at order-0');
    await eventually('the list socket closed', socketsClosed, 10_000);
    expect(state.finished).toBe(false);
    await client.close();
  });
});
