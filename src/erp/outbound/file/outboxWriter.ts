import { Worker } from 'node:worker_threads';
import { errorMessage } from '../../../shared/errors.js';
import type { Placement, PlaceRequest } from './placement.js';

export interface WriterRequest {
  id: number;
  request: PlaceRequest;
}

export interface WriterReply {
  id: number;
  placements: Placement[];
}

/** Puts files into the outbox on a thread of its own: one message there and back per call. */
interface OutboxWriter {
  /** Starts the thread now, so that the first hand-over does not wait for it to boot. */
  start(): void;
  place(request: PlaceRequest): Promise<Placement[]>;
}

interface Pending {
  request: PlaceRequest;
  resolve: (placements: Placement[]) => void;
}

/**
 * The thread's heap: its garbage is small and short-lived, and V8's default young generation
 * added ~9 MB to the process's peak (a 1 MB one ~1 MB less, writing 10,240 files). The old
 * generation holds a listing of a folder the ERP leaves full (~1M names).
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 64 };

/**
 * The thread's module: the built JavaScript beside this file, or, running from the TypeScript
 * sources (the tests), the source through tsx as the sources themselves are run.
 */
function startThread(): Worker {
  const own = import.meta.url;
  const resourceLimits = THREAD_LIMITS;
  if (!own.endsWith('.ts'))
    return new Worker(new URL('./outboxWorker.js', own), { resourceLimits });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = JSON.stringify(new URL('./outboxWorker.ts', own).href);
  const load = `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${entry}, ${entry}))`;
  return new Worker(load, { eval: true, resourceLimits });
}

/**
 * The writer thread, started by `start` or the first call. It keeps the process alive only
 * while a call is under way, as a file system call would, so it needs no closing. If it stops,
 * the calls under way are answered with a retry (their files are found identical or written
 * again then) and the next call starts it anew.
 */
export function createOutboxWriter(spawn: () => Worker = startThread): OutboxWriter {
  let thread: { worker: Worker; pending: Map<number, Pending> } | undefined;
  let nextId = 0;

  function started() {
    if (thread !== undefined) return thread;
    const current = { worker: spawn(), pending: new Map<number, Pending>() };
    const stopped = (why: string) => {
      if (thread === current) thread = undefined;
      const reason = `the outbox writer thread stopped (${why}); the files are written again`;
      for (const { request, resolve } of current.pending.values()) {
        resolve(request.files.map(() => ({ status: 'retry', reason })));
      }
      current.pending.clear();
    };
    current.worker.on('message', ({ id, placements }: WriterReply) => {
      current.pending.get(id)?.resolve(placements);
      current.pending.delete(id);
      if (current.pending.size === 0) current.worker.unref();
    });
    current.worker.on('error', (error) => stopped(errorMessage(error)));
    current.worker.on('exit', (code) => stopped(`exit code ${code}`));
    current.worker.unref();
    thread = current;
    return current;
  }

  return {
    start: () => void started(),
    place(request) {
      if (request.files.length === 0) return Promise.resolve([]);
      const { worker, pending } = started();
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, { request, resolve });
        worker.ref();
        worker.postMessage({ id, request } satisfies WriterRequest);
      });
    },
  };
}
