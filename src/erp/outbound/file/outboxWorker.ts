/**
 * The outbox writer thread: puts the files of each request into their folder (placeAll) and
 * answers with their placements. It runs the same file system calls the main thread would, so
 * that their many small steps per file (open, write, fsync, close, rename) do not take the main
 * thread's time from the platform requests and the queue.
 */
import { parentPort } from 'node:worker_threads';
import { nodeOutboxFs } from './atomicWrite.js';
import { failure, placeAll } from './placement.js';
import type { WriterReply, WriterRequest } from './outboxWriter.js';

const port = parentPort;
if (port === null) throw new Error('outboxWorker.ts runs as a worker thread only');

port.on('message', ({ id, request }: WriterRequest) => {
  void placeAll(nodeOutboxFs, request)
    // placeAll answers every failure as a placement; this is for a defect in it.
    .catch((error: unknown) => request.files.map(() => failure(error, request.dir)))
    .then((placements) => port.postMessage({ id, placements } satisfies WriterReply));
});
