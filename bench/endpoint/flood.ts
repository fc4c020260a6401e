/**
 * FLOOD_CLIENTS clients, each posting invalid ~0.9 MB erpOrder messages with the valid token one
 * after the other until the window ends: what an ERP gone wrong (or a leaked token) can do.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { invalidShapes, type Shape } from './bodies.js';
import { send, type Outcome } from './client.js';

export const FLOOD_CLIENTS = 20;
/** Bounds the count even when every message is refused at once. */
const MAX_PER_CLIENT = 2_000;
/** An answer slower than this is given up: the window's end must not wait on a hung daemon. */
const POST_TIMEOUT_MS = 5_000;

export interface Flooded {
  /** Each message sent, with the shape it had. */
  outcomes: { shape: string; outcome: Outcome }[];
}

async function client(
  port: number,
  token: string,
  shapes: readonly Shape[],
  first: number,
  until: number,
  into: Flooded,
): Promise<void> {
  for (let i = 0; i < MAX_PER_CLIENT && performance.now() < until; i += 1) {
    // Each client starts at another shape, so that every shape is in flight at once.
    const shape = shapes[(first + i) % shapes.length];
    if (shape === undefined) return;
    const outcome = await send({
      port,
      method: 'POST',
      path: '/erp/erpOrder',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: shape.body,
      timeoutMs: POST_TIMEOUT_MS,
    });
    into.outcomes.push({ shape: shape.name, outcome });
  }
}

/** Floods POST /erp/erpOrder for `windowMs`; resolves when the last message is answered. */
export async function flood(
  port: number,
  token: string,
  shapes: readonly Shape[],
  windowMs: number,
): Promise<Flooded> {
  const until = performance.now() + windowMs;
  const flooded: Flooded = { outcomes: [] };
  await Promise.all(
    Array.from({ length: FLOOD_CLIENTS }, (_, first) =>
      client(port, token, shapes, first, until, flooded),
    ),
  );
  return flooded;
}

interface FloodJob {
  port: number;
  token: string;
  windowMs: number;
}

/** The child is killed this long after the window: beyond the last message's time-out. */
const CHILD_MARGIN_MS = POST_TIMEOUT_MS + 5_000;
const CHILD = fileURLToPath(new URL('./floodChild.ts', import.meta.url));

/**
 * The flood in a child process (floodChild.ts), so that building, sending and reading its
 * megabytes neither delays this process's /healthz probes, making their figures worse than true,
 * nor counts as this process's CPU.
 */
export async function floodInChild(port: number, token: string, windowMs: number) {
  const job: FloodJob = { port, token, windowMs };
  const child = fork(CHILD, [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timer = setTimeout(() => child.kill('SIGKILL'), windowMs + CHILD_MARGIN_MS);
  // Over IPC, not in argv: the token is not for every `ps` to read.
  child.send(job);
  try {
    return await new Promise<Flooded>((resolve, reject) => {
      child.once('message', (flooded: Flooded) => resolve(flooded));
      child.once('error', reject);
      child.once('exit', (code, signal) =>
        reject(new Error(`the flood child exited (${code ?? signal}) without its figures`)),
      );
    });
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  }
}

/** Runs the flood of the job its parent sends (in floodChild.ts) and sends back what it saw. */
export async function floodForParent(): Promise<void> {
  const [job] = (await once(process, 'message')) as [FloodJob];
  const flooded = await flood(job.port, job.token, invalidShapes(), job.windowMs);
  await new Promise<void>((resolve, reject) =>
    process.send?.(flooded, undefined, {}, (error) => (error ? reject(error) : resolve())),
  );
}
