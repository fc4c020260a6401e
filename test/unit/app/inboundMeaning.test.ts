import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpInbound, inboxAcceptor } from '../../../src/pushback/intake.js';
import type { InboundRules } from '../../../src/erp/messages/index.js';
import { createLogger } from '../../../src/log/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';

let folder: string;
let store: Store;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'homecare-sync-meaning-'));
  store = openStore({ path: join(folder, 'sync.db'), clock: new FakeClock() });
});
afterEach(() => {
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

function inbound(rules?: InboundRules) {
  const logger = createLogger({ level: 'silent' });
  const accept = inboxAcceptor(store, logger);
  return httpInbound(KINDS, accept, () => undefined, rules);
}

const stored = () =>
  store.db.prepare('SELECT name, body FROM inbox_messages ORDER BY id').all() as {
    name: string;
    body: string;
  }[];

describe('POST /erp/<kind>: one message, however it is written', () => {
  const first = `{"salesId":"VK-1","patientCustomerId":"K-1","outboundDate":"2026-01-15T10:00:00Z",
    "deliveryAddress":{"name":"Erika Mustermann","city":"Köln"},
    "erpOrderedArticleLines":[{"articleId":"a-1","quantity":2}]}`;
  const reordered = `{ "erpOrderedArticleLines" : [ { "quantity" : 2, "articleId" : "a-1" } ],
    "deliveryAddress" : { "city" : "Köln", "name" : "Erika Mustermann" },
    "outboundDate" : "2026-01-15T10:00:00Z", "patientCustomerId" : "K-1", "salesId" : "VK-1" }`;

  it('takes the same body with its keys in another order and other spacing as a repeat', () => {
    const post = inbound();
    expect(post('erpOrder', JSON.parse(first), 'erp-key-1')).toEqual({
      status: 'accepted',
      id: 'erp-key-1',
    });
    expect(post('erpOrder', JSON.parse(reordered), 'erp-key-1')).toEqual({
      status: 'repeat',
      id: 'erp-key-1',
    });
    expect(stored()).toHaveLength(1);
  });

  it('still refuses another body under the same key', () => {
    const post = inbound();
    post('erpOrder', JSON.parse(first), 'erp-key-1');
    const changed = JSON.parse(reordered.replace('"quantity" : 2', '"quantity" : 3')) as unknown;
    expect(post('erpOrder', changed, 'erp-key-1')).toEqual({ status: 'conflict', id: 'erp-key-1' });
  });

  it('refuses an unknown field by default, and leaves it out with drop', () => {
    const withExtra = { ...(JSON.parse(first) as object), bearbeiter: 'Frau Beispiel' };
    const refused = inbound()('erpOrder', withExtra, 'erp-key-2');
    expect(refused).toEqual({
      status: 'invalid',
      problems: [expect.stringMatching(/^bearbeiter: unknown field/)],
    });
    const dropped: string[] = [];
    const post = inbound({
      unknownFields: 'drop',
      dropped: (_kind, paths) => dropped.push(...paths),
    });
    expect(post('erpOrder', withExtra, 'erp-key-2').status).toBe('accepted');
    expect(post('erpOrder', JSON.parse(reordered), 'erp-key-2').status).toBe('repeat');
    expect(stored()[0]?.body).not.toContain('bearbeiter');
    expect(JSON.parse(stored()[0]?.body ?? '{}')).toEqual(JSON.parse(first));
    expect(dropped).toEqual(['bearbeiter']);
  });
});
