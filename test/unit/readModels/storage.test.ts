import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderBytes, storageFigures } from '../../../src/readModels/index.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
beforeEach(() => void (temp = tempStores()));
afterEach(() => temp.cleanup());

describe('storage figures', () => {
  it('count the bytes of every file below the inbox archive, none when it is not there', async () => {
    const store = temp.open();
    const inbox = path.join(temp.folder, 'inbox');
    expect(await storageFigures(store, inbox)).toMatchObject({ archiveBytes: 0 });
    const day = path.join(inbox, '.archive', 'patient', '2026-01-15');
    fs.mkdirSync(day, { recursive: true });
    fs.writeFileSync(path.join(day, 'a.json'), '12345');
    fs.writeFileSync(path.join(inbox, '.archive', 'b.json'), '123');

    expect(await storageFigures(store, inbox)).toMatchObject({
      archive: path.join(inbox, '.archive'),
      archiveBytes: 8,
    });
  });

  it('fail, naming the folder, where the archive cannot be read, instead of counting nothing', async () => {
    const inbox = path.join(temp.folder, 'inbox');
    fs.mkdirSync(inbox);
    fs.writeFileSync(path.join(inbox, '.archive'), 'a file where the folder belongs');

    await expect(folderBytes(path.join(inbox, '.archive'))).rejects.toThrow(
      /ENOTDIR.*inbox\/\.archive/,
    );
  });
});
