import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpInbound, inboxAcceptor } from '../../../src/pushback/intake.js';
import { KINDS } from '../../support/inboxKinds.js';
import { createLogger } from '../../../src/log/index.js';
import type { HttpEndpoint } from '../../../src/http/server.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { startTestEndpoint } from '../../support/endpoint.js';
import { FakeClock } from '../../support/fakeClock.js';

let folder: string;
let store: Store;
let endpoint: HttpEndpoint;
let counted: string[];
let logged: Record<string, unknown>[];

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'homecare-sync-key-'));
  store = openStore({ path: join(folder, 'sync.db'), clock: new FakeClock() });
  counted = [];
  logged = [];
  const logger = createLogger({
    level: 'info',
    destination: {
      write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>),
    },
  });
  const accept = inboxAcceptor(store, logger);
  const inbound = httpInbound(KINDS, accept, (labels, n) =>
    counted.push(`${labels.source} ${labels.kind} ${labels.result} ${n}`),
  );
  endpoint = await startTestEndpoint({}, { inbound });
});
afterEach(async () => {
  await endpoint.close();
  store.close();
  rmSync(folder, { recursive: true, force: true });
});

const post = (key: string, body: unknown) =>
  fetch(`${endpoint.url}/erp/orderStatus`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: 'Bearer erp-secret',
      'idempotency-key': key,
    },
    body: JSON.stringify(body),
  });

const stored = () =>
  store.db.prepare('SELECT name, body FROM inbox_messages ORDER BY id').all() as {
    name: string;
    body: string;
  }[];

describe('POST /erp/<kind> with an Idempotency-Key', () => {
  const shipped = { orderType: 'single', id: 'o-1', status: 3 };

  it('takes the same key with the same body again as a repeat, stored once', async () => {
    expect((await post('erp-77', shipped)).status).toBe(202);
    const again = await post('erp-77', shipped);
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ id: 'erp-77', repeat: true });
    expect(stored()).toHaveLength(1);
    expect(counted).toEqual(['http orderStatus accepted 1', 'http orderStatus repeat 1']);
  });

  it('names the message by its key in the log, not redacted', async () => {
    await post('erp-77', shipped);
    expect(logged).toContainEqual(
      expect.objectContaining({ msg: 'inbox message queued', messageName: 'erp-77' }),
    );
  });

  it('refuses the same key with another body with 409 naming the key, and keeps the first', async () => {
    expect((await post('erp-77', shipped)).status).toBe(202);
    const other = await post('erp-77', { ...shipped, status: 5 });
    expect(other.status).toBe(409);
    expect(((await other.json()) as { message: string }).message).toContain(
      'Idempotency-Key "erp-77"',
    );
    expect(stored()).toEqual([{ name: 'erp-77', body: JSON.stringify(shipped) }]);
    expect(counted).toEqual(['http orderStatus accepted 1', 'http orderStatus rejected 1']);
  });
});

/** Issue 36: a message is known by what it says, whatever key (or none) carries it. */
describe('POST /erp/<kind>: the same message under a new key', () => {
  const processed = { orderType: 'single', id: 'o-1', status: 3 };
  const sent = { orderType: 'single', id: 'o-1', status: 4 };
  const jobs = () =>
    store.db.prepare("SELECT count(*) AS n FROM queue WHERE kind = 'orderStatus'").get() as {
      n: number;
    };

  it('takes the content its order last heard as a repeat under another key: nothing queued again', async () => {
    expect((await post('erp-1', processed)).status).toBe(202);
    const again = await post('erp-2', processed);
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ id: 'erp-2', repeat: true });
    expect(jobs().n).toBe(1);
    // The key is kept: the same key with another body is still a conflict.
    expect((await post('erp-2', sent)).status).toBe(409);
  });

  it('refuses an older message sent again after a newer one with 409, saying which came since', async () => {
    expect((await post('erp-1', processed)).status).toBe(202);
    expect((await post('erp-2', sent)).status).toBe(202);
    const old = await post('erp-3', processed);
    expect(old.status).toBe(409);
    expect(((await old.json()) as { message: string }).message).toMatch(
      /overtaken: the same was said before, and erp-2, handled .*, is newer; not written; send it with a newer erpTimestamp/,
    );
    expect(jobs().n).toBe(2);
    expect(counted).toContain('http orderStatus overtaken 1');
    // Logged at warn, naming the kind, the order's key and both requests by their keys.
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        kind: 'orderStatus',
        key: 'singleOrder:o-1',
        messageName: 'erp-3',
        msg: expect.stringMatching(
          /^inbox: orderStatus erp-3 about singleOrder:o-1 refused as overtaken: the same was said before, and erp-2, handled /,
        ) as string,
      }),
    );
    // Sent again under its key, it is refused the same way.
    expect((await post('erp-3', processed)).status).toBe(409);
  });

  it('takes a message with a newer erpTimestamp that goes back, and refuses one with an older stamp', async () => {
    expect(
      (await post('erp-1', { ...sent, erpTimestamp: '2026-03-03T12:00:00+01:00' })).status,
    ).toBe(202);
    const older = await post('erp-2', { ...processed, erpTimestamp: '2026-03-03T11:00:00+01:00' });
    expect(older.status).toBe(409);
    expect(((await older.json()) as { message: string }).message).toMatch(
      /its erpTimestamp 2026-03-03T10:00:00\.000Z is older than 2026-03-03T11:00:00\.000Z of erp-1/,
    );
    const back = await post('erp-3', { ...processed, erpTimestamp: '2026-03-03T13:00:00+01:00' });
    expect(back.status).toBe(202);
    expect(jobs().n).toBe(2);
    const [job] = store.db
      .prepare("SELECT payload FROM queue WHERE kind = 'orderStatus' ORDER BY id DESC LIMIT 1")
      .all() as { payload: string }[];
    // The stamp orders the messages; it is not written to the platform.
    expect(JSON.parse(job?.payload ?? '{}')).toEqual(processed);
  });
});
