import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databaseCheck, diskCheck } from '../../../src/check/local.js';
import { systemStatfs } from '../../../src/check/system.js';
import { openStore, SCHEMA_VERSION, schemaVersion } from '../../../src/store/index.js';
import { checkRig, GIB, type CheckRig } from '../../support/check/checkRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { databaseAtVersion } from '../../support/store/tempStore.js';

let rig: CheckRig;
beforeEach(() => {
  rig = checkRig();
});
afterEach(() => rig.cleanup());

describe('local.database', () => {
  it('creates a missing database, as the first start would, and says so', async () => {
    const outcome = await rig.run(databaseCheck);
    expect(outcome).toMatchObject({ status: 'pass' });
    expect(outcome.message).toBe(
      `created ${rig.database} (schema ${SCHEMA_VERSION}); its folder is writable`,
    );
    expect(existsSync(rig.database)).toBe(true);
  });

  it('opens a current database and finds it writable', async () => {
    mkdirSync(dirname(rig.database), { recursive: true });
    openStore({ path: rig.database, clock: new FakeClock() }).close();
    const outcome = await rig.run(databaseCheck);
    expect(outcome).toEqual({
      status: 'pass',
      message: `${rig.database} opens, schema ${SCHEMA_VERSION} (current), writable`,
    });
  });

  it('does not migrate an older database: warns that it needs migration, and leaves it as it was', async () => {
    mkdirSync(dirname(rig.database), { recursive: true });
    databaseAtVersion(rig.database, SCHEMA_VERSION - 3).close();
    const outcome = await rig.run(databaseCheck);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain(`needs migration ${SCHEMA_VERSION - 3}→${SCHEMA_VERSION}`);
    expect(outcome.hint).toContain('homecare-sync backup');
    const db = databaseAtVersion(rig.database, SCHEMA_VERSION - 3);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION - 3);
    db.close();
  });

  it('fails on a file that is no database, with what to do', async () => {
    mkdirSync(dirname(rig.database), { recursive: true });
    writeFileSync(rig.database, 'not a database at all, just text'.repeat(100));
    const outcome = await rig.run(databaseCheck);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('is not an SQLite database or is damaged');
  });
});

describe('local.disk', () => {
  const free = (bytes: number) => ({
    statfs: () => Promise.resolve({ freeBytes: bytes, totalBytes: 100 * GIB }),
  });

  it('passes with room, warns below 1 GiB, fails below 100 MiB, naming the free space', async () => {
    await expect(rig.run(diskCheck, free(10 * GIB))).resolves.toMatchObject({ status: 'pass' });
    const low = await rig.run(diskCheck, free(0.5 * GIB));
    expect(low).toMatchObject({ status: 'warn' });
    expect(low.message).toContain('512.0 MiB free');
    const full = await rig.run(diskCheck, free(50 * 1024 * 1024));
    expect(full).toMatchObject({ status: 'fail' });
    expect(full.message).toContain('50.0 MiB free');
  });

  it("reads the real file system of the database's folder, its nearest existing one before it is made", async () => {
    const outcome = await rig.run(diskCheck, { statfs: systemStatfs });
    expect(['pass', 'warn', 'fail']).toContain(outcome.status);
    expect(outcome.message).toMatch(/free/);
  });
});
