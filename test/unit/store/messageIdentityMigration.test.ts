import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/erp/messages/index.js';
import {
  firstMessageOf,
  insertInboxMessage,
  inboxJobKey,
  jobOfMessage,
  MIGRATIONS,
  type Store,
} from '../../../src/store/index.js';
import { databaseAtVersion, tempStores, type TempStores } from '../../support/store/tempStore.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The migration that made ERP messages known by what they say (issue 36) keeps the rows kept
 * before working: their names, hashes and jobs stay as they were, and their content is known,
 * so the same message read again under its new name is a repeat, not a second job.
 */
describe('migration: ERP messages known by what they say', () => {
  let stores: TempStores;
  let store: Store;
  const body = { orderType: 'single', id: 'o-1', status: 4, salesId: 'VK-1' };
  const old = {
    kind: 'orderStatus',
    source: 'file',
    name: 'Rueckmeldung.csv#line2',
    // The build before hashed a CSV row's body as JSON.stringify wrote it.
    sha256: sha256(JSON.stringify(body)),
  };

  beforeEach(() => {
    stores = tempStores();
    const file = path.join(stores.folder, 'homecare-sync.db');
    // The version just before it, whatever migrations came after it.
    const before = MIGRATIONS.findIndex(
      ({ name }) => name === 'ERP messages known by what they say',
    );
    const db = databaseAtVersion(file, before);
    db.prepare(
      `INSERT INTO inbox_messages (kind, source, name, sha256, body, received_at, state, processed_at)
       VALUES (@kind, @source, @name, @sha256, @body, '2026-03-01T08:00:00.000Z', 'done',
         '2026-03-01T08:00:00.000Z')`,
    ).run({ ...old, body: JSON.stringify(body) });
    db.prepare(
      `INSERT INTO queue (kind, entity_key, payload, idempotency_key, state, created_at, updated_at,
         next_attempt_at)
       VALUES ('orderStatus', 'singleOrder:o-1', @payload, @key, 'done', '2026-03-01T08:00:00.000Z',
         '2026-03-01T08:00:01.000Z', '2026-03-01T08:00:00.000Z')`,
    ).run({ payload: JSON.stringify(body), key: inboxJobKey(old) });
    db.close();
    store = stores.open();
  });
  afterEach(() => stores.cleanup());

  it('keeps a message’s name, hash and job, and knows its content', () => {
    const kept = firstMessageOf(store, old);
    expect(kept).toMatchObject({ name: old.name, sha256: old.sha256 });
    expect(kept?.content).toBe(contentHash(body, undefined));
    expect(jobOfMessage(store, old)?.state).toBe('done');
  });

  it('takes the same message read again under its new name as a repeat', () => {
    const again = insertInboxMessage(store, {
      kind: 'orderStatus',
      source: 'file',
      name: 'Rueckmeldung.csv#2',
      sha256: contentHash(body, undefined),
      body: JSON.stringify(body),
      entity: 'singleOrder:o-1',
    });
    expect(again.outcome).toBe('repeat');
    const other = insertInboxMessage(store, {
      kind: 'orderStatus',
      source: 'file',
      name: 'Rueckmeldung-2.csv#2',
      sha256: contentHash({ ...body, status: 5 }, undefined),
      body: JSON.stringify({ ...body, status: 5 }),
      entity: 'singleOrder:o-1',
    });
    expect(other.outcome).toBe('new');
  });
});
