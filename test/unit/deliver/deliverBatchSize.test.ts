import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractFor } from '../../../src/contract/index.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import { RECORD_FILES_PER_CALL } from '../../../src/erp/outbound/file/fileAdapter.js';
import { isBatchHandler } from '../../../src/queue/types.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { deliveryHandlers } from '../../../src/deliver/deliver.js';
import { tempFolder } from '../../support/erp/fileDropSupport.js';
import { FakeClock } from '../../support/fakeClock.js';

/**
 * How many ready versions one hand-over takes: a batch file holds up to `sync.batchSize`; record
 * files go in smaller hand-overs, so the first orders are acknowledged while later ones are
 * still written and the queue's lanes write several at once.
 */
describe('records per hand-over to the file adapter', () => {
  const clock = new FakeClock();
  let folder: { dir: string; cleanup: () => Promise<void> };
  let store: Store;
  beforeEach(async () => {
    folder = await tempFolder();
    store = openStore({ path: `${folder.dir}/homecare-sync.db`, clock });
  });
  afterEach(async () => {
    store.close();
    await folder.cleanup();
  });

  async function maxJobs(format: 'json' | 'csv' | 'xml', batchSize: number) {
    const adapter = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: `${folder.dir}/outbox`, format },
      { clock },
    );
    const handler = deliveryHandlers({
      store,
      adapter,
      contract: contractFor('B'),
      logger: pino({ enabled: false }),
      fetchReferences: () => Promise.resolve(new Map()),
      filesOf: () => Promise.resolve(undefined),
      batchSize,
    })['deliver.singleOrder'];
    if (!isBatchHandler(handler)) throw new Error('the file adapter takes batches');
    return handler.maxJobs;
  }

  it('takes up to sync.batchSize for a batch file, fewer for one file per record', async () => {
    expect(RECORD_FILES_PER_CALL).toBeLessThan(500);
    expect(await maxJobs('csv', 500)).toBe(500);
    expect(await maxJobs('json', 500)).toBe(RECORD_FILES_PER_CALL);
    expect(await maxJobs('xml', 500)).toBe(RECORD_FILES_PER_CALL);
    expect(await maxJobs('json', 10)).toBe(10);
  });
});
