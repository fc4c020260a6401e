/**
 * Resolves on the first SIGTERM or SIGINT. `dispose()` gives the signals their default meaning
 * back, so that a process a failed start left running can still be ended with SIGTERM.
 */
export function signalled(): { signal: Promise<NodeJS.Signals>; dispose: () => void } {
  const listeners: Array<[NodeJS.Signals, () => void]> = [];
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    for (const name of ['SIGTERM', 'SIGINT'] as const) {
      const listener = () => resolve(name);
      listeners.push([name, listener]);
      process.once(name, listener);
    }
  });
  return {
    signal,
    dispose: () => listeners.forEach(([name, listener]) => process.off(name, listener)),
  };
}
