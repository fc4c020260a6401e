import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { relative, resolve, isAbsolute } from 'node:path';
import { takeWriterLock } from '../app/writerLock.js';
import type { Config } from '../config/index.js';
import type { Clock } from '../shared/clock.js';
import { SetupError } from '../shared/errors.js';
import { openStore } from '../store/index.js';

/** Is `path` the folder `cwd` or one above it (clearing it would clear the user's work)? */
function holds(path: string, cwd: string): boolean {
  const rest = relative(path, cwd);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

/** Refuses while another homecare-sync holds the database (a demo still running). */
function checkNotInUse(database: string, clock: Clock): void {
  if (!existsSync(database)) return;
  const store = openStore({ path: database, clock });
  try {
    takeWriterLock(store).release();
  } finally {
    store.close();
  }
}

/**
 * The simulator starts from fresh seed data every time, so the demo's database and ERP
 * folders start empty too: what an earlier demo left would name orders the new simulator does
 * not have. Removes the database (with its WAL files), the outbox and the inbox, and returns
 * what it removed; the outbox and the inbox are made again, empty, as an installation prepares
 * them for its ERP (the first-contact check then finds them).
 */
export async function clearDemoData(config: Config, cwd: string, clock: Clock): Promise<string[]> {
  const database = resolve(cwd, config.storage.path);
  const folders = [
    ['erp.file.outbox', resolve(cwd, config.erp.file.outbox)],
    ['erp.file.inbox', resolve(cwd, config.erp.file.inbox)],
  ] as const;
  const unsafe = folders.filter(([, folder]) => holds(folder, cwd));
  if (unsafe.length > 0) {
    throw new SetupError(
      'the demo clears its ERP folders at start',
      unsafe.map(
        ([field, folder]) =>
          `${field}: ${folder} holds the working folder; use a folder of its own such as ./data/demo/erp`,
      ),
    );
  }
  checkNotInUse(database, clock);
  const removed = [database, `${database}-wal`, `${database}-shm`, ...folders.map(([, f]) => f)];
  const present = removed.filter((path) => existsSync(path));
  for (const path of present) await rm(path, { recursive: true, force: true });
  for (const [, folder] of folders) await mkdir(folder, { recursive: true });
  return present;
}
