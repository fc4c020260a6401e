import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { FakeClock } from '../support/fakeClock.js';

/** A temporary folder removed again by cleanup(); stores opened through it are closed first. */
export interface TempStores {
  folder: string;
  clock: FakeClock;
  open(file?: string): Store;
  cleanup(): void;
}

export function tempStores(): TempStores {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'homecare-sync-store-'));
  const clock = new FakeClock();
  const opened: Store[] = [];
  return {
    folder,
    clock,
    open(file = 'homecare-sync.db') {
      const store = openStore({ path: path.join(folder, file), clock });
      opened.push(store);
      return store;
    },
    cleanup() {
      for (const store of opened) if (store.db.open) store.close();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
