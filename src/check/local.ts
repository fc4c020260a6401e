import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileBytes, SCHEMA_VERSION } from '../store/index.js';
import { errorMessage } from '../shared/errors.js';
import type { CheckContext } from './context.js';
import type { CheckDefinition } from './runner.js';
import { roomVerdict } from './space.js';
import { nearestExisting, systemStatfs } from './system.js';
import { fail, pass, warn, type Outcome } from './verdict.js';

/**
 * Whether the daemon can write the database: the file and its folder (SQLite writes its -wal and
 * -shm beside it) for this user, and SQLite's write lock, taken and given back (a transaction
 * that writes nothing). The check keeps its own result there afterwards, a real write.
 */
function writableProblem(context: CheckContext, path: string): string | undefined {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(path), constants.W_OK | constants.X_OK);
  } catch (error) {
    return `${path} or its folder is not writable for this user (${errorMessage(error)})`;
  }
  const database = context.database();
  if (database.state !== 'open') return undefined;
  try {
    database.store.db.exec('BEGIN IMMEDIATE');
    database.store.db.exec('ROLLBACK');
  } catch (error) {
    return `${path} cannot be locked for writing (${errorMessage(error)})`;
  }
  return undefined;
}

function databaseOutcome(context: CheckContext): Outcome {
  const path = resolve(context.config.storage.path);
  const database = context.database();
  if (database.state === 'behind') {
    return warn(
      `${path} needs migration ${database.from}→${database.to}; the check does not migrate it`,
      'the next start of the daemon migrates it; take a backup before (homecare-sync backup <file>)',
    );
  }
  if (database.state === 'unusable') return fail(database.message);
  if (database.created) {
    return pass(`created ${path} (schema ${SCHEMA_VERSION}); its folder is writable`);
  }
  const problem = writableProblem(context, path);
  if (problem !== undefined) {
    return fail(
      problem,
      'give the user homecare-sync runs as write access to the file and its folder',
    );
  }
  return pass(`${path} opens, schema ${SCHEMA_VERSION} (current), writable`);
}

/** The database opens without a migration, is writable, its schema current. */
export const databaseCheck: CheckDefinition<CheckContext> = {
  id: 'local.database',
  run: (context) => Promise.resolve(databaseOutcome(context)),
};

/** Room on the database's file system: for pulls, and a VACUUM or backup of its size. */
export const diskCheck: CheckDefinition<CheckContext> = {
  id: 'local.disk',
  async run(context) {
    const path = resolve(context.config.storage.path);
    const statfs = context.deps.statfs ?? systemStatfs;
    const folder = nearestExisting(dirname(path));
    const { freeBytes } = await statfs(folder);
    const size = fileBytes(path) + fileBytes(`${path}-wal`);
    return roomVerdict(`the database (${folder})`, freeBytes, `database folder ${folder}`, size);
  },
};
