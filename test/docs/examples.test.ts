import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../src/erp/adapter.js';
import { createInbox, DEFAULT_INBOX_OPTIONS } from '../../src/erp/inbox/index.js';
import { isPushBackKind, PUSH_BACK_KIND_NAMES } from '../../src/pushback/index.js';
import { FakeClock } from '../support/fakeClock.js';
import { KINDS, parseInboxBody } from '../support/inboxKinds.js';
import { filesBelow, OUTBOX_EXAMPLES, writeOutboxExamples } from './outboxExamples.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INBOX_EXAMPLES = join(ROOT, 'docs/examples/inbox');
const REGENERATE = 'run `npx tsx test/docs/makeExamples.ts`';

async function inboxExamples(): Promise<{ kind: string; file: string; json: unknown }[]> {
  const files = await filesBelow(INBOX_EXAMPLES);
  return [...files].map(([path, bytes]) => {
    const [kind = '', file = ''] = path.split('/');
    return { kind, file, json: JSON.parse(bytes.toString('utf8')) as unknown };
  });
}

describe('docs examples', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'homecare-examples-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('outbox: each example file is what the file adapter writes today for the example order', async () => {
    await writeOutboxExamples(dir);
    const written = await filesBelow(dir);
    const documented = await filesBelow(OUTBOX_EXAMPLES);
    expect([...documented.keys()], `the files in docs/examples/outbox; ${REGENERATE}`).toEqual([
      ...written.keys(),
    ]);
    for (const [path, bytes] of written) {
      const message = `docs/examples/outbox/${path} is not what the adapter writes; ${REGENERATE}`;
      expect(documented.get(path)?.toString('utf8'), message).toBe(bytes.toString('utf8'));
    }
  });

  it('outbox: the examples show what docs/readme/file-drop.md says of them', async () => {
    const files = await filesBelow(OUTBOX_EXAMPLES);
    const one = (folder: string) =>
      [...files].find(([path]) => path.startsWith(`${folder}/`))?.[1].toString('utf8') ?? '';
    const order = JSON.parse(one('json')) as Record<string, unknown>;
    expect(order).toMatchObject({
      patientCustomerId: 'K-10042',
      integratedCareSalesId: 'VA-2026-00417',
    });
    expect(order.patient).toMatchObject({ customerId: 'K-10042', lastName: 'Mustermann' });
    expect(order.orderedArticleLines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ articleCustomerNumber: '100-3150', quantity: 2.5 }),
      ]),
    );
    expect(one('ndjson').trimEnd().split('\n')).toHaveLength(2);
    const [header = '', ...rows] = one('csv').trimEnd().split('\n');
    expect(header.split(';')).toContain('orderedArticleLines.articleCustomerNumber');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain(';2,5;');
    expect(rows[0]).toContain(';04.03.2026;');
    expect(one('opentrans')).toContain('<TOTAL_ITEM_NUM>3</TOTAL_ITEM_NUM>');
  });

  it('inbox: there is an example for every kind, and orderStatus by id and by salesId', async () => {
    const examples = await inboxExamples();
    expect(examples.filter((e) => !isPushBackKind(e.kind)).map((e) => e.kind)).toEqual([]);
    expect(new Set(examples.map((e) => e.kind))).toEqual(new Set(PUSH_BACK_KIND_NAMES));
    const orderStatus = examples.filter((e) => e.kind === 'orderStatus').map((e) => e.json);
    expect(orderStatus).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: expect.any(String) as string }),
        expect.not.objectContaining({ id: expect.anything() as unknown }),
      ]),
    );
  });

  it('inbox: every example is a valid message of its kind', async () => {
    for (const { kind, file, json } of await inboxExamples()) {
      if (!isPushBackKind(kind)) continue;
      const parsed = parseInboxBody(kind, json);
      expect(parsed.ok ? [] : parsed.problems, `docs/examples/inbox/${kind}/${file}`).toEqual([]);
    }
  });

  it('inbox: the attachment example carries a real PDF', async () => {
    const attachment = (await inboxExamples()).find((e) => e.kind === 'attachment')?.json as
      { data?: string; mime?: string } | undefined;
    expect(attachment?.mime).toBe('application/pdf');
    expect(
      Buffer.from(attachment?.data ?? '', 'base64')
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('inbox: dropped into a real inbox, every example file is accepted', async () => {
    await cp(INBOX_EXAMPLES, dir, { recursive: true });
    const examples = await inboxExamples();
    for (const { kind, file } of examples) await writeFile(join(dir, kind, `${file}.done`), '');
    const messages: InboxMessage[] = [];
    const accept = (message: InboxMessage) => {
      messages.push(message);
      return Promise.resolve('accepted' as const);
    };
    const inbox = createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, doneMarker: true },
      { clock: new FakeClock('2026-03-03T15:00:00.000Z'), kinds: KINDS, accept },
    );
    const report = await inbox.scanOnce();
    expect(report.files.filter((f) => f.status !== 'accepted')).toEqual([]);
    expect(messages.map((m) => `${m.kind}/${m.name}`).sort()).toEqual(
      examples.map((e) => `${e.kind}/${e.file}`).sort(),
    );
  });

  it('docs: every example file is linked from a page in docs/readme', async () => {
    const pages = await readdir(join(ROOT, 'docs/readme'));
    const texts = await Promise.all(
      pages.map((name) => readFile(join(ROOT, 'docs/readme', name), 'utf8')),
    );
    const linked = new Set(
      texts.flatMap((text) =>
        [...text.matchAll(/\]\(\.\.\/(examples\/[^)]+)\)/g)].map((m) => `docs/${m[1]}`),
      ),
    );
    const examples = [
      ...[...(await filesBelow(OUTBOX_EXAMPLES)).keys()].map((p) => `docs/examples/outbox/${p}`),
      ...[...(await filesBelow(INBOX_EXAMPLES)).keys()].map((p) => `docs/examples/inbox/${p}`),
    ];
    expect(examples.filter((path) => !linked.has(path))).toEqual([]);
  });
});
