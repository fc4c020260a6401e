import { systemClock } from '../../../src/shared/clock.js';
import { openStore, type Store } from '../../../src/store/index.js';

/** `work` on the database at `file` (a CLI test's, between its commands), closed after. */
export function onDatabase<T>(file: string, work: (store: Store) => T): T {
  const store = openStore({ path: file, clock: systemClock });
  try {
    return work(store);
  } finally {
    store.close();
  }
}
