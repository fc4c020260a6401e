import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  /** Every JSON body posted, in order. */
  bodies: Record<string, unknown>[];
  server: Server;
}

/** A local webhook receiver: answers each POST with the next of `statuses`, then 204. */
export async function webhookReceiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      response.statusCode = statuses.shift() ?? 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, server };
}
