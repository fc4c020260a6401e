import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ErpRequestSeen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the ERP does with one call instead of taking the record. */
export type ErpFault =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Cuts the connection before storing anything. */
  | { kind: 'reset' }
  /** Stores the record, then cuts the connection: the sender never learns it arrived. */
  | { kind: 'storeThenReset' }
  /** Never answers (until the ERP is closed). */
  | { kind: 'stall' };

export interface FakeErp {
  url: string;
  /** Every call, in arrival order, faults included. */
  requests: ErpRequestSeen[];
  /** What the ERP holds: one entry per Idempotency-Key (or per call, for calls without one). */
  stored: Map<string, ErpRequestSeen>;
  /** The next calls meet these faults, one each, in order; later calls are taken normally. */
  script(...faults: ErpFault[]): void;
  /** Forgets the faults not met yet: the ERP is healthy again. */
  recover(): void;
  close(): Promise<void>;
}

export const repeatFault = (count: number, fault: ErpFault): ErpFault[] =>
  Array.from({ length: count }, () => fault);

export const failWith503 = (count: number): ErpFault[] =>
  repeatFault(count, { kind: 'status', status: 503, body: { error: 'maintenance' } });

function answer(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/**
 * A real HTTP ERP on a loopback port that behaves like an idempotent one: the first call with an
 * Idempotency-Key stores the record (201), a repeat of the key stores nothing and answers 200.
 */
export async function startFakeErp(): Promise<FakeErp> {
  const requests: ErpRequestSeen[] = [];
  const stored = new Map<string, ErpRequestSeen>();
  const faults: ErpFault[] = [];

  function store(seen: ErpRequestSeen): boolean {
    const header = seen.headers['idempotency-key'];
    const key = typeof header === 'string' ? header : `call-${requests.length}`;
    if (stored.has(key)) return false;
    stored.set(key, seen);
    return true;
  }

  function handle(seen: ErpRequestSeen, response: ServerResponse): void {
    const fault = faults.shift();
    if (fault?.kind === 'status') {
      answer(response, fault.status, fault.body ?? {}, fault.headers);
    } else if (fault?.kind === 'reset') {
      response.socket?.destroy();
    } else if (fault?.kind === 'storeThenReset') {
      store(seen);
      response.socket?.destroy();
    } else if (fault === undefined) {
      const isNew = store(seen);
      answer(response, isNew ? 201 : 200, { accepted: true, repeat: !isNew });
    }
    // A stalled call is left without an answer.
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen: ErpRequestSeen = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      handle(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    stored,
    script: (...more) => faults.push(...more),
    recover: () => void faults.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
