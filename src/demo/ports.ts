import { createServer } from 'node:net';
import { SetupError } from '../shared/errors.js';

const inUse = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

/** `error` as the operator should read it when it says the port is taken; else unchanged. */
export function portTaken(error: unknown, where: string, problem: string): unknown {
  return inUse(error) ? new SetupError(`${where} is in use`, [problem]) : error;
}

/**
 * Fails with a SetupError when `host:port` is taken. The daemon's endpoint starts after its
 * workers, so a taken port is better found before anything runs.
 */
export async function checkPortFree(host: string, port: number, problem: string): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, resolve);
    });
  } catch (error) {
    throw portTaken(error, `${host}:${port}`, problem);
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
