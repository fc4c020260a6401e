/**
 * Run by pruneKill.test.ts as a child process: prunes the database at argv[2] with the clock at
 * argv[3], one row per batch, and says `mid` on stdout after some batches so the test can kill
 * it -9 while it prunes.
 */
import { openStore } from '../../../src/store/index.js';
import { pruneStore } from '../../../src/housekeeping/index.js';
import { FakeClock } from '../fakeClock.js';
import { RETENTION_DAYS } from './tempStore.js';

const [, , file = '', now = ''] = process.argv;
const store = openStore({ path: file, clock: new FakeClock(now) });
let batches = 0;
await pruneStore(store, RETENTION_DAYS, {
  batchSize: 1,
  stopping: () => {
    batches += 1;
    if (batches === 40) process.stdout.write('mid\n');
    return false;
  },
});
process.stdout.write('through\n');
