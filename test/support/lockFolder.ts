import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';

const run = (command: string, args: readonly string[]) =>
  execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** Why `command` failed, in its own words. */
function failure(command: string, error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
  return `${command}: ${stderr || (error instanceof Error ? error.message : String(error))}`;
}

/**
 * Makes `folder` unwritable for this user, and gives back the way to undo it. A user is stopped
 * by the folder's mode; root, whom no mode stops, by the immutable flag (`chattr +i`: even root
 * may then neither write nor create there, and access(2) says so), or where the file system has
 * no such flag, by a read-only bind mount over the folder. Fails, naming both, where root has
 * neither: a test of an unwritable folder must not pass or skip on a machine that cannot make one.
 */
export function lockFolder(folder: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(folder, 0o555);
    return () => chmodSync(folder, 0o755);
  }
  let immutable: string;
  try {
    run('chattr', ['+i', folder]);
    return () => run('chattr', ['-i', folder]);
  } catch (error) {
    immutable = failure('chattr +i', error);
  }
  try {
    run('mount', ['--bind', folder, folder]);
  } catch (error) {
    throw new Error(
      `cannot make ${folder} unwritable for root: ${immutable}; ${failure('mount --bind', error)}`,
    );
  }
  try {
    run('mount', ['-o', 'remount,bind,ro', folder]);
  } catch (error) {
    run('umount', [folder]);
    throw new Error(
      `cannot make ${folder} unwritable for root: ${immutable}; ${failure('mount -o remount,bind,ro', error)}`,
    );
  }
  return () => run('umount', [folder]);
}
