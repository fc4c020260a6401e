import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractFor } from '../../../src/contract/index.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import { deliveryJob } from '../../../src/queue/index.js';
import { isBatchHandler, type HandlerContext, type Job } from '../../../src/queue/types.js';
import { openStore, recordVersion, upsertMirror, type Store } from '../../../src/store/index.js';
import { deliveryHandlers } from '../../../src/deliver/deliver.js';
import type { Reference } from '../../../src/deliver/enrich.js';
import { tempFolder } from '../../support/erp/fileDropSupport.js';
import { FakeClock } from '../../support/fakeClock.js';

const V1 = '2026-01-15T07:00:00.000Z';
const V2 = '2026-01-15T08:00:00.000Z';

const order = (id: string, patientId: string, version = V1) => ({
  _id: id,
  timestamp: version,
  patientId,
  orderedArticleLines: [{ _id: `${id}-l1`, articleId: 'a1', quantity: 1 }],
});

/**
 * The versions of one hand-over are read together (their records, then what they reference);
 * each still fails alone and sees a reference fetched for it.
 */
describe('preparing a hand-over of several versions', () => {
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

  it('enriches each from the mirror, fetches the missing references together, and fails only the versions that lack theirs', async () => {
    upsertMirror(store, 'patient', { _id: 'p1', customerId: 'K-1' }, V1);
    upsertMirror(store, 'article', { _id: 'a1', customerNumber: 'A-1', name: 'Pflaster' }, V1);
    const pulled = [
      order('o1', 'p1'),
      order('o2', 'p1'),
      order('o3', 'p-new'),
      order('o5', 'p-new'),
      order('o6', 'p-unreachable'),
      order('o7', 'p-unknown'),
    ];
    for (const record of pulled) {
      recordVersion(store, 'singleOrder', record._id, V1, { json: JSON.stringify(record) });
    }
    // o4's V1 was noted without its text and the mirror holds V2 only: it cannot be handed over.
    recordVersion(store, 'singleOrder', 'o4', V1, { sha256: 'x' });
    upsertMirror(store, 'singleOrder', order('o4', 'p1', V2), V2);
    const fetches: Reference[][] = [];
    const adapter = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: join(folder.dir, 'outbox') },
      { clock },
    );
    const handler = deliveryHandlers({
      store,
      adapter,
      contract: contractFor('B'),
      logger: pino({ enabled: false }),
      fetchReferences: (references) => {
        fetches.push([...references]);
        upsertMirror(store, 'patient', { _id: 'p-new', customerId: 'K-NEW' }, V1);
        return Promise.resolve(new Map([['patient\u0000p-unreachable', new Error('HTTP 503')]]));
      },
      filesOf: () => Promise.resolve(undefined),
      batchSize: 10,
    })['deliver.singleOrder'];
    if (!isBatchHandler(handler)) throw new Error('the file adapter takes batches');

    const jobs: Job[] = ['o1', 'o2', 'o3', 'o4', 'o5', 'o6', 'o7'].map((id, n) => ({
      ...deliveryJob('singleOrder', id, V1),
      id: n + 1,
      attempts: 0,
      createdAt: V1,
    }));
    const results = await handler.run(jobs, 1, {} as HandlerContext);

    expect(results.map((r) => r.ok)).toEqual([true, true, true, false, true, false, false]);
    const error = (n: number) => (results[n]?.ok === false ? results[n].error : undefined);
    expect(error(3)).toMatchObject({ code: 'DELIVERY_RECORD_MISSING' });
    expect(error(5)).toBeInstanceOf(Error);
    expect((error(5) as Error).message).toMatch(/o6 .*could not be fetched: HTTP 503/);
    expect(error(6)).toMatchObject({ code: 'DELIVERY_WAITS_FOR_REFERENCE' });
    expect(fetches).toEqual([
      [
        { resource: 'patient', id: 'p-new' },
        { resource: 'patient', id: 'p-unreachable' },
        { resource: 'patient', id: 'p-unknown' },
      ],
    ]);
    const written = async (id: string) =>
      JSON.parse(
        await readFile(
          join(folder.dir, 'outbox', 'singleOrder', `${id}_2026-01-15T07-00-00.000Z.json`),
          'utf8',
        ),
      ) as Record<string, unknown>;
    expect(await written('o1')).toMatchObject({
      patientCustomerId: 'K-1',
      orderedArticleLines: [{ articleCustomerNumber: 'A-1', articleName: 'Pflaster' }],
    });
    expect(await written('o2')).toMatchObject({ patientCustomerId: 'K-1' });
    expect(await written('o3')).toMatchObject({ patientCustomerId: 'K-NEW' });
    expect(await written('o5')).toMatchObject({ patientCustomerId: 'K-NEW' });
  });
});
