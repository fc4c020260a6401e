import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Variant } from '../../src/contract/index.js';
import { containerNodeFlags, ensureBuilt } from '../support/daemonCommand.js';
import { withTempFolder } from '../support/tempFolder.js';
import { transpileWithDist } from './builtChild.js';
import type { PullFigures } from './pullOnce.js';

const entry = fileURLToPath(new URL('./pullChild.ts', import.meta.url));

/**
 * How the child runs: `container` as the container runs the daemon (node with the Dockerfile's
 * flags, the daemon's modules from dist/), `tsx` with this process's node flags and tsx loader
 * (which adds about 35 MiB of rss).
 */
export type ChildWay = 'container' | 'tsx';

async function figuresOf(
  modulePath: string,
  execArgv: readonly string[],
  args: readonly string[],
): Promise<PullFigures> {
  const child = fork(modulePath, args, {
    execArgv: [...execArgv],
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

/**
 * pullOnce in a child process of its own, so that its memory figures hold the pull and the code
 * it loads, not the other benchmarks, the raw reads' leftovers or the harness.
 */
export async function pullInProcess(
  server: { url: string },
  variant: Variant,
  count: number,
  way: ChildWay,
  print: (line: string) => void,
): Promise<PullFigures> {
  const args = [server.url, variant, String(count)];
  if (way === 'tsx') return figuresOf(entry, process.execArgv, args);
  ensureBuilt(print);
  return withTempFolder((folder) =>
    figuresOf(transpileWithDist(entry, folder), [...containerNodeFlags(), '--expose-gc'], args),
  );
}
