import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Variant } from '../../src/contract/index.js';

export interface OrderServer {
  url: string;
  stop(): Promise<void>;
}

const entry = fileURLToPath(new URL('./orderServer.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;

function urlFrom(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the order server did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once('message', (message: { url?: string }) => {
      clearTimeout(timer);
      if (typeof message.url === 'string') resolve(message.url);
      else reject(new Error(`the order server sent ${JSON.stringify(message)} instead of its url`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the order server exited with code ${String(code)} before it listened`));
    });
  });
}

/**
 * Starts the order server in a child process (the node flags and tsx loader of this process are
 * inherited) and waits for its url.
 */
export async function startOrderServer(variant: Variant, count: number): Promise<OrderServer> {
  const child = fork(entry, [variant, String(count)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const url = await urlFrom(child);
    return {
      url,
      async stop() {
        if (child.exitCode !== null) return;
        const exited = once(child, 'exit');
        child.kill();
        await exited;
      },
    };
  } catch (error) {
    child.kill();
    throw error;
  }
}
