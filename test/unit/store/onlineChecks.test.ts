import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  keepOnlineChecks,
  lastOnlineChecks,
  openStore,
  SCHEMA_VERSION,
  SchemaBehindError,
  schemaVersion,
  type Store,
} from '../../../src/store/index.js';
import { databaseAtVersion, tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
beforeEach(() => {
  temp = tempStores();
});
afterEach(() => temp.cleanup());

const check = (
  id: string,
  status: 'pass' | 'warn' | 'fail' | 'skip',
  hint: string | null = null,
) => ({
  id,
  status,
  ms: 12,
  message: `${id} said ${status}`,
  hint,
});

/** A whole run: platform.dns passed, read.article failed. */
function keepFirstRun(store: Store): void {
  keepOnlineChecks(store, {
    checkedAt: '2026-03-01T08:00:00.000Z',
    whole: true,
    checks: [check('platform.dns', 'pass'), check('read.article', 'fail', 'ask for rights')],
  });
}

describe('the last online check kept in the database', () => {
  it('is empty before the first check', () => {
    expect(lastOnlineChecks(temp.open())).toEqual([]);
  });

  it('keeps every verdict of a whole run, in its order, replacing the run before', () => {
    const store = temp.open();
    keepFirstRun(store);
    keepOnlineChecks(store, {
      checkedAt: '2026-03-02T08:00:00.000Z',
      whole: true,
      checks: [check('platform.key', 'pass'), check('local.disk', 'warn')],
    });
    expect(lastOnlineChecks(store)).toEqual([
      { ...check('platform.key', 'pass'), checkedAt: '2026-03-02T08:00:00.000Z' },
      { ...check('local.disk', 'warn'), checkedAt: '2026-03-02T08:00:00.000Z' },
    ]);
  });

  it('a run of some checks (--only, --skip) replaces only theirs', () => {
    const store = temp.open();
    keepFirstRun(store);
    keepOnlineChecks(store, {
      checkedAt: '2026-03-02T08:00:00.000Z',
      whole: false,
      checks: [check('read.article', 'pass')],
      positions: { 'read.article': 1 },
    });
    expect(lastOnlineChecks(store)).toEqual([
      { ...check('platform.dns', 'pass'), checkedAt: '2026-03-01T08:00:00.000Z' },
      { ...check('read.article', 'pass'), checkedAt: '2026-03-02T08:00:00.000Z' },
    ]);
  });
});

describe('opening without migrating (check --online)', () => {
  it('refuses a database an older build left, saying from which version to which, and changes nothing', () => {
    const file = path.join(temp.folder, 'old.db');
    databaseAtVersion(file, SCHEMA_VERSION - 2).close();
    let error: unknown;
    try {
      openStore({ path: file, clock: temp.clock, migrate: false }).close();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaBehindError);
    expect(error).toMatchObject({ from: SCHEMA_VERSION - 2, to: SCHEMA_VERSION });
    expect((error as Error).message).toContain(
      `needs migration ${SCHEMA_VERSION - 2}→${SCHEMA_VERSION}`,
    );
    const store = databaseAtVersion(file, SCHEMA_VERSION - 2);
    expect(schemaVersion(store)).toBe(SCHEMA_VERSION - 2);
    store.close();
  });

  it('opens a current database as it is, and creates a missing one', () => {
    const file = path.join(temp.folder, 'new.db');
    const created = openStore({ path: file, clock: temp.clock, migrate: false });
    expect(schemaVersion(created.db)).toBe(SCHEMA_VERSION);
    created.close();
    openStore({ path: file, clock: temp.clock, migrate: false }).close();
  });
});
