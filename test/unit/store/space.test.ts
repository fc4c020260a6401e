import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, upsertMirror } from '../../../src/store/index.js';
import { storageReport } from '../../../src/readModels/index.js';
import { autoVacuumOf, compact, fileBytes } from '../../../src/store/space.js';
import { databaseAtVersion, tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
beforeEach(() => {
  temp = tempStores();
});
afterEach(() => temp.cleanup());

describe('compact', () => {
  it('switches a database made without auto-vacuum to incremental and shrinks it', () => {
    databaseAtVersion(path.join(temp.folder, 'old.db'), SCHEMA_VERSION).close();
    const store = temp.open('old.db');
    expect(autoVacuumOf(store)).toBe('none');
    for (let n = 0; n < 200; n += 1) {
      upsertMirror(store, 'article', { _id: `a-${n}`, text: 'x'.repeat(4000) }, 'v1');
    }
    store.db.prepare("DELETE FROM mirror WHERE resource = 'article'").run();

    const { before, after } = compact(store);

    expect(autoVacuumOf(store)).toBe('incremental');
    expect(after).toBeLessThan(before / 4);
    expect(storageReport(store)).toMatchObject({
      autoVacuum: 'incremental',
      freePages: 0,
      walBytes: 0,
      rows: { mirror: 0, erasures: 0 },
    });
  });
});

describe('fileBytes', () => {
  it('is 0 for a file not there, and fails, naming it, for one that cannot be looked at', () => {
    const file = path.join(temp.folder, 'a-file');
    writeFileSync(file, '12345');
    expect(fileBytes(file)).toBe(5);
    expect(fileBytes(`${file}-wal`)).toBe(0);
    expect(() => fileBytes(path.join(file, 'below'))).toThrow(/ENOTDIR.*a-file/);
  });
});
