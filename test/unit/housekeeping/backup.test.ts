import Sqlite from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SetupError } from '../../../src/shared/errors.js';
import {
  backupStore,
  listBackups,
  pruneBackups,
  restorePointOf,
} from '../../../src/housekeeping/index.js';
import { upsertMirror, type Store } from '../../../src/store/index.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

const DAY = 86_400_000;

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
});
afterEach(() => temp.cleanup());

const at = (name: string) => path.join(temp.folder, name);

describe('backupStore', () => {
  it('writes a consistent 0600 copy, including what is still in the WAL, and records it', async () => {
    upsertMirror(store, 'patient', { _id: 'p-1', lastName: 'Mustermann' }, 'v1');
    expect(fs.statSync(`${store.path}-wal`).size).toBeGreaterThan(0);
    const made = await backupStore(store, at('backup-1.db'));
    expect(made).toMatchObject({ path: at('backup-1.db'), madeAt: '2026-01-15T08:00:00.000Z' });
    expect(made.bytes).toBe(fs.statSync(at('backup-1.db')).size);
    expect(fs.statSync(at('backup-1.db')).mode & 0o777).toBe(0o600);
    const copy = new Sqlite(at('backup-1.db'), { readonly: true });
    try {
      expect(copy.prepare("SELECT json ->> '$.lastName' FROM mirror").pluck().get()).toBe(
        'Mustermann',
      );
    } finally {
      copy.close();
    }
    expect(listBackups(store)).toEqual([
      { path: at('backup-1.db'), madeAt: '2026-01-15T08:00:00.000Z', bytes: made.bytes },
    ]);
    expect(fs.readdirSync(temp.folder).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('never replaces a file, nor the database itself', async () => {
    fs.writeFileSync(at('taken.db'), 'mine');
    await expect(backupStore(store, at('taken.db'))).rejects.toThrow(SetupError);
    expect(fs.readFileSync(at('taken.db'), 'utf8')).toBe('mine');
    await expect(backupStore(store, store.path)).rejects.toThrow(/the database's own file/);
    await expect(backupStore(store, at('missing/folder/b.db'))).rejects.toThrow(
      /cannot be written/,
    );
    expect(listBackups(store)).toEqual([]);
  });
});

describe('the restore point of a backup', () => {
  it('is written into the copy only, and a copy of a restored database keeps the older one', async () => {
    await backupStore(store, at('b-1.db'));
    expect(restorePointOf(store)).toBeUndefined();
    const restored = temp.open('b-1.db');
    expect(restorePointOf(restored)).toBe('2026-01-15T08:00:00.000Z');

    temp.clock.advance(DAY);
    await backupStore(restored, at('b-2.db'));
    expect(restorePointOf(temp.open('b-2.db'))).toBe('2026-01-15T08:00:00.000Z');
  });
});

describe('pruneBackups', () => {
  it('removes backups past their days and beyond the newest kept, never the newest', async () => {
    for (let n = 1; n <= 4; n += 1) {
      await backupStore(store, at(`b-${n}.db`));
      temp.clock.advance(DAY);
    }
    fs.rmSync(at('b-2.db'));

    expect(pruneBackups(store, { days: 30, kept: 2 })).toEqual([at('b-2.db'), at('b-1.db')]);
    expect(fs.existsSync(at('b-1.db'))).toBe(false);
    expect(listBackups(store).map((b) => b.path)).toEqual([at('b-4.db'), at('b-3.db')]);

    temp.clock.advance(40 * DAY);
    expect(pruneBackups(store, { days: 30, kept: 7 })).toEqual([at('b-3.db')]);
    expect(listBackups(store).map((b) => b.path)).toEqual([at('b-4.db')]);
    expect(fs.existsSync(at('b-4.db'))).toBe(true);
  });
});
