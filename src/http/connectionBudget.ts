import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { answerAndClose } from './parserRefusals.js';

/**
 * Keeps at most `budget` connections open at once. Node's own `maxConnections` closes the ones
 * beyond without a word, which a client cannot tell from a crash; here they get a 503 with
 * `Retry-After` before they are closed. The HTTP server is a listener of its own `connection`
 * event (documented: emitting it injects a connection), so the gate takes its place and passes
 * on the connections within the budget.
 */
export function limitConnections(
  server: Server,
  budget: () => number,
  onRefused: (socket: Socket) => void,
): void {
  const serve = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  let open = 0;
  server.on('connection', (socket: Socket) => {
    if (open >= budget()) {
      const message = 'too many connections are open; try again in a few seconds';
      answerAndClose(socket, 503, message, { 'Retry-After': '5' }, true);
      onRefused(socket);
      return;
    }
    open += 1;
    socket.once('close', () => (open -= 1));
    for (const listener of serve) listener.call(server, socket);
  });
}
