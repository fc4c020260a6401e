import type { ChildProcess } from 'node:child_process';

/**
 * SIGTERM, then SIGKILL when `child` has not ended within `boundMs` (a busy event loop may never
 * see SIGTERM). Resolves once `exited` did, saying whether it took the SIGKILL.
 */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<void>,
  boundMs: number,
): Promise<{ killed: boolean }> {
  child.kill('SIGTERM');
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, boundMs);
  await exited;
  clearTimeout(timer);
  return { killed };
}
