import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../../src/erp/adapter.js';
import { createInbox, DEFAULT_INBOX_OPTIONS } from '../../../src/erp/inbound/index.js';
import { OPENTRANS_FOLDER, type KnownOrder } from '../../../src/erp/messages/index.js';
import { isPushBackKind, PUSH_BACK_KIND_NAMES } from '../../../src/pushback/index.js';
import { openTransProblems } from '../../support/erp/openTransSchema.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS, parseInboxBody } from '../../support/inboxKinds.js';
import { exampleOrder } from '../../support/docs/exampleOrders.js';
import {
  GERMAN_ERP_CONFIG,
  GERMAN_ERP_DELIVERIES,
  GERMAN_ERP_STATUS,
} from '../../support/docs/mappingExamples.js';
import {
  filesBelow,
  OUTBOX_EXAMPLES,
  writeOutboxExamples,
} from '../../support/docs/outboxExamples.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const EXAMPLES = join(ROOT, 'docs/examples');
const INBOX_EXAMPLES = join(EXAMPLES, 'inbox');
const REGENERATE = 'run `npx tsx test/support/docs/makeExamples.ts`';

/** Every file the inbox examples hold: JSON messages, CSV files, openTRANS answers. */
async function inboxFiles(): Promise<{ kind: string; file: string; bytes: Buffer }[]> {
  const files = await filesBelow(INBOX_EXAMPLES);
  return [...files].map(([path, bytes]) => {
    const [kind = '', file = ''] = path.split('/');
    return { kind, file, bytes };
  });
}

async function inboxExamples(): Promise<{ kind: string; file: string; json: unknown }[]> {
  return (await inboxFiles())
    .filter(({ file }) => file.endsWith('.json'))
    .map(({ kind, file, bytes }) => ({
      kind,
      file,
      json: JSON.parse(bytes.toString('utf8')) as unknown,
    }));
}

/**
 * Which test checks each file under docs/examples: a file none of them covers fails the
 * walk below, so a new example comes with its test.
 */
const CHECKED: readonly { covers: (path: string) => boolean; by: string }[] = [
  { covers: (path) => path.startsWith('outbox/'), by: 'outbox: each example file is what …' },
  {
    covers: (path) => path.startsWith('mapping/outbox/'),
    by: 'germanErp.test.ts, outbox: the example file is what the daemon writes',
  },
  {
    covers: (path) => join(EXAMPLES, path) === GERMAN_ERP_CONFIG,
    by: 'germanErp.test.ts (loaded as `config check` loads it)',
  },
  {
    covers: (path) => join(EXAMPLES, path) === GERMAN_ERP_STATUS,
    by: 'germanErp.test.ts, inbox: the example status export imports',
  },
  {
    covers: (path) => join(EXAMPLES, path) === GERMAN_ERP_DELIVERIES,
    by: 'germanErp.test.ts, inbox: the example delivery export imports as one ERP order',
  },
  {
    covers: (path) => {
      const [top, kind = '', file = ''] = path.split('/');
      if (top !== 'inbox') return false;
      if (kind === OPENTRANS_FOLDER) return file.endsWith('.xml');
      return isPushBackKind(kind) && /\.(json|csv)$/.test(file);
    },
    by: 'inbox: dropped into a real inbox, every example file is accepted',
  },
];

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

  it('every file under docs/examples is checked by a test', async () => {
    const files = [...(await filesBelow(EXAMPLES)).keys()];
    const unchecked = files.filter((path) => !CHECKED.some((check) => check.covers(path)));
    expect(unchecked, 'add a test for each (and a line to CHECKED)').toEqual([]);
    // The walk sees the files the tests read.
    expect(files).toEqual(
      expect.arrayContaining([
        'mapping/german-erp.yaml',
        'inbox/opentrans/ORDERRESPONSE_VK-2026-004711.xml',
        'inbox/orderStatus/status-2026-03-03.csv',
      ]),
    );
  });

  it('every openTRANS example, ORDER out and answers in, validates against the openTRANS 2.1 schema', async () => {
    const files = [...(await filesBelow(EXAMPLES))].filter(([path]) =>
      path.split('/').includes('opentrans'),
    );
    expect(files.map(([path]) => path.split('/')[0])).toEqual(['inbox', 'inbox', 'outbox']);
    for (const [path, bytes] of files) {
      expect(await openTransProblems(bytes.toString('utf8')), path).toEqual([]);
    }
  });

  it('inbox: the openTRANS answers set the example order’s salesId, then Sent with tracking', async () => {
    await cp(join(INBOX_EXAMPLES, OPENTRANS_FOLDER), join(dir, OPENTRANS_FOLDER), {
      recursive: true,
    });
    const order = exampleOrder();
    const known: KnownOrder = { orderType: 'single', record: order.record };
    const messages: InboxMessage[] = [];
    const accept = (taken: readonly InboxMessage[]) => {
      messages.push(...taken);
      return Promise.resolve(taken.map(() => 'accepted' as const));
    };
    const inbox = createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: 0 },
      {
        clock: new FakeClock('2026-03-03T15:00:00.000Z'),
        kinds: KINDS,
        accept,
        openTransOrder: (id) => (id === order.id ? known : undefined),
      },
    );
    await inbox.scanOnce();
    const report = await inbox.scanOnce();
    expect(report.files.map((f) => [f.file, f.status])).toEqual([
      ['DISPATCHNOTIFICATION_LS-2026-004711.xml', 'accepted'],
      ['ORDERRESPONSE_VK-2026-004711.xml', 'accepted'],
    ]);
    expect(messages.map((m) => [m.kind, m.body])).toEqual([
      [
        'orderStatus',
        {
          orderType: 'single',
          id: order.id,
          salesId: 'VK-2026-004711',
          status: 4,
          trackingInfo: [
            {
              trackingCode: '00340434161094042557',
              trackingLink: 'https://tracking.example.com/?nr=00340434161094042557',
            },
          ],
        },
      ],
      ['orderStatus', { orderType: 'single', id: order.id, salesId: 'VK-2026-004711' }],
    ]);
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
    const examples = await inboxFiles();
    for (const { kind, file } of examples) await writeFile(join(dir, kind, `${file}.done`), '');
    const messages: InboxMessage[] = [];
    const accept = (taken: readonly InboxMessage[]) => {
      messages.push(...taken);
      return Promise.resolve(taken.map(() => 'accepted' as const));
    };
    const inbox = createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, doneMarker: true },
      { clock: new FakeClock('2026-03-03T15:00:00.000Z'), kinds: KINDS, accept },
    );
    const report = await inbox.scanOnce();
    expect(report.files.filter((f) => f.status !== 'accepted')).toEqual([]);
    expect(report.files).toHaveLength(examples.length);
    // A JSON file is one message named as the file; a CSV or openTRANS file one per row or order.
    for (const { file } of examples) {
      const named = messages.filter((m) => m.name === file || m.name.startsWith(`${file}#`));
      expect(named.length, file).toBeGreaterThan(0);
      if (file.endsWith('.json')) expect(named.map((m) => m.name)).toEqual([file]);
    }
    // The order status export in the default layout, as docs/readme/file-drop.md shows it.
    const csv = messages.filter((m) => m.name.startsWith('status-2026-03-03.csv#'));
    expect(csv.map((m) => m.body)).toEqual([
      expect.objectContaining({
        salesId: 'VK-2026-004711',
        status: 4,
        trackingInfo: [expect.objectContaining({ trackingCode: '00340434161094042557' })],
      }),
      {
        orderType: 'single',
        id: '9a0e4c7b-1f3d-4b26-8e59-6c1d2a7f3b08',
        salesId: 'VK-2026-004712',
      },
    ]);
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
    const examples = [...(await filesBelow(EXAMPLES)).keys()].map((p) => `docs/examples/${p}`);
    expect(examples.filter((path) => !linked.has(path))).toEqual([]);
  });
});
