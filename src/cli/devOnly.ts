import { CliExit, EXIT } from './exit.js';

/**
 * Packages only the simulator and the demo use (fake data, PDF documents). They are development
 * dependencies: `npm ci --omit=dev`, as the container image installs, leaves them out, and the
 * daemon never loads them.
 */
export const DEV_ONLY_PACKAGES = ['@faker-js/faker', 'pdf-lib'] as const;

function isMissingDevOnlyPackage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code } = error as NodeJS.ErrnoException;
  return (
    code === 'ERR_MODULE_NOT_FOUND' &&
    DEV_ONLY_PACKAGES.some((name) => error.message.includes(`'${name}'`))
  );
}

/** Loads the modules of `command` on demand; without the dev-only packages, says what to do. */
export async function importDevOnly<T>(command: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissingDevOnlyPackage(error)) throw error;
    throw new CliExit(
      EXIT.failure,
      `${command} needs ${DEV_ONLY_PACKAGES.join(' and ')}, which this installation leaves out (a production install: npm ci --omit=dev, as in the container image); run it from a full install (npm install) of homecare-sync`,
    );
  }
}
