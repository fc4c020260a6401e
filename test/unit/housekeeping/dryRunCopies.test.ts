import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dryRunCopies } from '../../../src/housekeeping/index.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
beforeEach(() => void (temp = tempStores()));
afterEach(() => temp.cleanup());

describe('dryRunCopies', () => {
  it('lists the copies beside the database, each with whether its dry run still runs', () => {
    const database = path.join(temp.folder, 'homecare-sync.db');
    const stale = path.join(temp.folder, '.dry-run-999999999-abc');
    const running = path.join(temp.folder, `.dry-run-${process.pid}-def`);
    fs.mkdirSync(stale);
    fs.mkdirSync(running);

    // Sorted by folder.
    expect(dryRunCopies(database)).toEqual(
      [
        { path: stale, pid: 999999999, running: false },
        { path: running, pid: process.pid, running: true },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
  });

  it('lists none before the database folder is made', () => {
    expect(dryRunCopies(path.join(temp.folder, 'not-yet', 'homecare-sync.db'))).toEqual([]);
  });

  it('fails, naming the folder, where the database folder cannot be read, instead of listing none', () => {
    const file = path.join(temp.folder, 'not-a-folder');
    fs.writeFileSync(file, '');

    expect(() => dryRunCopies(path.join(file, 'homecare-sync.db'))).toThrow(
      /ENOTDIR.*not-a-folder/,
    );
  });
});
