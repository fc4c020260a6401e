/**
 * The platform side of the pull benchmark, run in a child process (see `startOrderServer`) so
 * that making 200,000 orders neither shares the puller's event loop nor counts toward its memory.
 * Every GET is answered with one JSON array of `count` single orders, written as the socket
 * takes it (back-pressure), so neither side ever holds the whole list.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Variant } from '../../src/contract/index.js';
import { singleOrderSource, type OrderSource } from './orders.js';

const CHUNK_CHARS = 64 * 1024;

/** Resolves once the socket wants more, or once the client has gone. */
function writable(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}

async function streamOrders(response: ServerResponse, source: OrderSource, count: number) {
  response.writeHead(200, {
    'content-type': 'application/json',
    // The puller takes the platform's clock from this header.
    date: new Date().toUTCString(),
  });
  let chunk = '[';
  for (let index = 0; index < count && !response.destroyed; index++) {
    chunk += (index === 0 ? '' : ',') + source.orderAt(index);
    if (chunk.length >= CHUNK_CHARS) {
      const more = response.write(chunk);
      chunk = '';
      if (!more) await writable(response);
    }
  }
  response.end(`${chunk}]`);
}

function serve(variant: Variant, count: number): void {
  const source = singleOrderSource(variant, count, new Date());
  const server = createServer((request, response) => {
    if (request.method !== 'GET') {
      response.writeHead(405).end();
      return;
    }
    streamOrders(response, source, count).catch((error: unknown) => {
      process.stderr.write(`order server: ${String(error)}\n`);
      response.destroy();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ url: `http://127.0.0.1:${port}` });
  });
  // The benchmark owns this process: when it goes, so does the server.
  process.on('disconnect', () => process.exit(0));
}

const [variant, count] = process.argv.slice(2);
serve(variant as Variant, Number(count));
