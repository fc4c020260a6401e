import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Variant } from '../../src/contract/index.js';
import type { PullFigures } from './pullOnce.js';

const entry = fileURLToPath(new URL('./pullChild.ts', import.meta.url));

/**
 * pullOnce in a child process of its own (this process's node flags and tsx loader inherited),
 * so that its memory figures hold the pull and the code it loads, not the other benchmarks, the
 * raw reads' leftovers or the harness.
 */
export async function pullInProcess(
  server: { url: string },
  variant: Variant,
  count: number,
): Promise<PullFigures> {
  const child = fork(entry, [server.url, variant, String(count)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const [message] = (await Promise.race([
    once(child, 'message'),
    exited.then(([code]) => {
      throw new Error(`the pull process exited with code ${String(code)} before it reported`);
    }),
  ])) as [{ figures?: PullFigures; error?: string }];
  await exited;
  if (message.figures === undefined) throw new Error(`the pull failed: ${message.error ?? '?'}`);
  return message.figures;
}
