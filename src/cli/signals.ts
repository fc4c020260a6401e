/**
 * The signals that ask for a clean stop. SIGHUP too: a closed terminal or a supervisor that
 * sends it would otherwise end the process at once, mid-write, without releasing the database.
 */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

/**
 * Resolves on the first SIGTERM, SIGINT or SIGHUP. `dispose()` gives the signals their default
 * meaning back, so that a process a failed start left running can still be ended with SIGTERM.
 */
export function signalled(): { signal: Promise<NodeJS.Signals>; dispose: () => void } {
  const listeners: Array<[NodeJS.Signals, () => void]> = [];
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    for (const name of STOP_SIGNALS) {
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
