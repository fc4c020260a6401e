/**
 * The signals that ask for a clean stop. SIGHUP too, unless the command reloads on it (`run`):
 * a closed terminal or a supervisor that sends it would otherwise end the process at once,
 * mid-write, without releasing the database.
 */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Resolves on the first SIGTERM or SIGINT, and SIGHUP unless `onReload` is given: then each
 * SIGHUP calls it (the daemon reloads its config) and the process goes on. `dispose()` gives
 * the signals their default meaning back, so that a process a failed start left running can
 * still be ended with SIGTERM.
 */
export function signalled(onReload?: () => void): {
  signal: Promise<NodeJS.Signals>;
  dispose: () => void;
} {
  const listeners: Array<[NodeJS.Signals, () => void]> = [];
  const stops: NodeJS.Signals[] = [...STOP_SIGNALS, ...(onReload ? [] : ['SIGHUP' as const])];
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    for (const name of stops) {
      const listener = () => resolve(name);
      listeners.push([name, listener]);
      process.once(name, listener);
    }
  });
  if (onReload) {
    listeners.push(['SIGHUP', onReload]);
    process.on('SIGHUP', onReload);
  }
  return {
    signal,
    dispose: () => listeners.forEach(([name, listener]) => process.off(name, listener)),
  };
}
