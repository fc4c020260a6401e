import { SetupError } from './errors.js';

/** How long one file-system step of building the daemon (a folder prepared, read) may take. */
export const FS_STEP_MS = 10_000;

/**
 * What `work` resolves to, or a SetupError naming `problem` (by its config key) once `ms` passed.
 * A step that hangs on a file system that never answers (a folder under /proc, a dead network
 * mount) then fails a start or a reload instead of holding it for good; what `work` makes after
 * all is handed to `release`, so that nothing it opened is kept.
 */
export async function withinTime<T>(
  work: Promise<T>,
  ms: number,
  problem: string,
  release: (late: T) => unknown = () => undefined,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let late = false;
  const timeUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      late = true;
      reject(
        new SetupError(`${problem} did not answer within ${ms / 1000} s`, [
          `${problem}: no answer within ${ms / 1000} s; check that it is a folder on a working file system`,
        ]),
      );
    }, ms);
  });
  void work.then(
    (value) => {
      if (late) release(value);
    },
    () => undefined,
  );
  try {
    return await Promise.race([work, timeUp]);
  } finally {
    clearTimeout(timer);
  }
}
