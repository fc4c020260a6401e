import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface SimulatorProcess {
  url: string;
  /** Calls the control API (/__sim) and returns its JSON answer ({} when empty). */
  control(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

const entry = fileURLToPath(new URL('./simulatorChild.ts', import.meta.url));
/** A first tenant of 300,000 articles takes a while to seed. */
const START_TIMEOUT_MS = 300_000;

/**
 * Starts the simulator (variant B, default seed; `articles` in the first tenant when given) in a
 * child process and waits for its url.
 */
export async function startSimulatorProcess(
  options: { articles?: number } = {},
): Promise<SimulatorProcess> {
  const args = options.articles === undefined ? [] : ['--articles', String(options.articles)];
  const child = fork(entry, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const timer = setTimeout(() => child.kill(), START_TIMEOUT_MS);
  try {
    const [message] = (await once(child, 'message')) as [{ url: string; controlToken: string }];
    const { url, controlToken } = message;
    return {
      url,
      async control(method, path, body) {
        const response = await fetch(`${url}/__sim${path}`, {
          method,
          headers: {
            'sim-control-token': controlToken,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        if (!response.ok)
          throw new Error(`simulator ${method} ${path}: ${response.status} ${text}`);
        return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      },
      async stop() {
        if (child.exitCode !== null) return;
        const exited = once(child, 'exit');
        child.disconnect();
        await exited;
      },
    };
  } catch (error) {
    child.kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
