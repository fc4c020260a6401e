import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inboxBatchAcceptor } from '../../../src/pushback/intake.js';
import { createInbox, DEFAULT_INBOX_OPTIONS } from '../../../src/erp/inbound/index.js';
import { type UnknownFields } from '../../../src/erp/messages/index.js';
import { createLogger } from '../../../src/log/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { tempFolder } from '../../support/erp/fileDropSupport.js';

const order = {
  salesId: 'VK-1',
  patientCustomerId: 'K-1',
  outboundDate: '2026-01-15T10:00:00Z',
  deliveryAddress: { city: 'Köln' },
  erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 2, lagerplatz: 'R-17' }],
  bearbeiter: 'Frau Beispiel',
};

describe('inbox: fields the contract does not define', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let store: Store;
  let logged: Record<string, unknown>[];
  const clock = new FakeClock('2026-01-15T08:00:00.000Z');

  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    store = openStore({ path: join(dir, 'sync.db'), clock });
    logged = [];
  });
  afterEach(async () => {
    store.close();
    await cleanup();
  });

  const logger = () =>
    createLogger({
      level: 'info',
      destination: {
        write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>),
      },
    });
  const open = (unknownFields: UnknownFields) => {
    const log = logger();
    const accept = inboxBatchAcceptor(store, log);
    return createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: join(dir, 'inbox'), minFileAgeMs: 0, unknownFields },
      {
        clock,
        kinds: KINDS,
        accept: (messages) => Promise.resolve(accept(messages)),
        logger: log,
      },
    );
  };
  const drop = async (name: string, body: unknown) => {
    await mkdir(join(dir, 'inbox', 'erpOrder'), { recursive: true });
    await writeFile(join(dir, 'inbox', 'erpOrder', name), JSON.stringify(body));
  };
  const stored = () =>
    (store.db.prepare('SELECT body FROM inbox_messages').all() as { body: string }[]).map(
      (row) => JSON.parse(row.body) as Record<string, unknown>,
    );

  it('refuses the file by default: .error with a report naming each unknown field', async () => {
    const inbox = open('refuse');
    await drop('VK-1.json', order);
    await inbox.scanOnce();
    const report = await inbox.scanOnce();
    expect(report.counts.rejected).toBe(1);
    expect(await readdir(join(dir, 'inbox', '.error', 'erpOrder'))).toEqual([
      'VK-1.json',
      'VK-1.json.error.json',
    ]);
    const written = JSON.parse(
      await readFile(join(dir, 'inbox', '.error', 'erpOrder', 'VK-1.json.error.json'), 'utf8'),
    ) as { reason: string; problems: { path: string; message: string }[] };
    expect(written.reason).toBe('not a valid erpOrder message');
    expect(written.problems.map((p) => p.path)).toEqual([
      'erpOrderedArticleLines.0.lagerplatz',
      'bearbeiter',
    ]);
    expect(written.problems[0]?.message).toMatch(/^unknown field: .*inbound\.unknownFields: drop/);
    expect(stored()).toEqual([]);
  });

  it('with drop, archives the file and stores the message without them, logged once', async () => {
    const inbox = open('drop');
    await drop('VK-1.json', order);
    await drop('VK-2.json', { ...order, salesId: 'VK-2' });
    await inbox.scanOnce();
    const report = await inbox.scanOnce();
    expect(report.counts.accepted).toBe(2);
    expect(await readdir(join(dir, 'inbox', '.archive', 'erpOrder', '2026-01-15'))).toEqual([
      'VK-1.json',
      'VK-2.json',
    ]);
    const known = { ...order, bearbeiter: undefined };
    expect(stored()).toEqual([
      { ...known, erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 2 }] },
      { ...known, salesId: 'VK-2', erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 2 }] },
    ]);
    const dropped = logged.filter((line) => String(line.msg).startsWith('unknown field dropped'));
    expect(dropped.map((line) => [line.kind, line.field])).toEqual([
      ['erpOrder', 'erpOrderedArticleLines.*.lagerplatz'],
      ['erpOrder', 'bearbeiter'],
    ]);
    expect(JSON.stringify(logged)).not.toContain('Frau Beispiel');
    expect(JSON.stringify(logged)).not.toContain('R-17');
  });
});
