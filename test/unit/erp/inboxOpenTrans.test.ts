import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '../../../src/contract/index.js';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type InboxOptions,
} from '../../../src/erp/inbound/index.js';
import type { OrderLookup } from '../../../src/erp/messages/orders.js';
import { createLogger, fileLabel } from '../../../src/log/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';
import { dispatchNotification, orderResponse } from '../../support/erp/openTransAnswers.js';

const MIN_AGE = 1_000;
const ORDER = '6f1c2b9e-2d3a-4c55-9a1e-0f7d2b3c4d5e';
const DIRECT = '0b7e4c1a-9d2f-4e83-a6b5-3c8d9e0f1a2b';

/** The single order as the mirror holds it: two lines, 2.5 pieces and 10 packs. */
const mirrored: Record<string, unknown> = {
  _id: ORDER,
  patientId: 'a1b2c3d4-0000-4000-8000-000000000001',
  orderedArticleLines: [
    { _id: 'line-1', articleCustomerNumber: '100-200', quantity: 2.5, unit: 'Stück' },
    { _id: 'line-2', articleCustomerNumber: '100-300', quantity: 10, unit: 'Packung' },
  ],
};

describe('inbox: openTRANS answers in <inbox>/opentrans/', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let clock: FakeClock;
  let recorder: AcceptRecorder;
  let logged: (Record<string, unknown> & { msg: string })[];
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    clock = new FakeClock('2026-01-16T12:00:00.000Z');
    recorder = new AcceptRecorder();
    logged = [];
  });
  afterEach(() => cleanup());

  const open = (extra: Partial<InboxOptions> = {}, orderOf?: OrderLookup) =>
    createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: MIN_AGE, ...extra },
      {
        clock,
        kinds: KINDS,
        accept: recorder.accept,
        logger: createLogger({
          level: 'info',
          destination: { write: (line: string) => void logged.push(JSON.parse(line) as never) },
        }),
        ...(orderOf === undefined ? {} : { openTransOrder: orderOf }),
      },
    );

  /** Drops the file and scans twice, far enough apart for it to count as complete. */
  async function read(inbox: ReturnType<typeof open>, name: string, content: string | Buffer) {
    await mkdir(join(dir, 'opentrans'), { recursive: true });
    await writeFile(join(dir, 'opentrans', name), content);
    await inbox.scanOnce();
    clock.advance(MIN_AGE);
    const report = await inbox.scanOnce();
    return report.files.filter((file) => file.status !== 'waiting');
  }

  const errorReport = async (name: string) =>
    JSON.parse(await readFile(join(dir, '.error', 'opentrans', `${name}.error.json`), 'utf8')) as {
      file: string;
      kind: string;
      reason: string;
      problems: { path?: string; line?: number; message: string }[];
    };

  it('takes an ORDERRESPONSE: SUPPLIER_ORDER_ID becomes the salesId, the rest is noted', async () => {
    const inbox = open();
    const text = orderResponse({
      orderId: ORDER,
      salesId: 'VK-2026-004711',
      delivery: '2026-01-20',
      lines: [{ lineItemId: 'line-1', quantity: 2.5 }],
    });
    const [result] = await read(inbox, 'AB-4711.xml', text);
    expect(result).toMatchObject({ kind: 'opentrans', status: 'accepted', accepted: 1 });
    expect(result?.status === 'accepted' && result.notes).toEqual([
      `order ${ORDER}: delivery confirmed for 2026-01-20`,
      `order ${ORDER}: 1 line(s) confirmed, not compared with the order`,
    ]);
    expect(recorder.messages).toEqual([
      expect.objectContaining({
        kind: 'orderStatus',
        source: 'file',
        name: `AB-4711.xml#${ORDER}`,
        body: { orderType: 'single', id: ORDER, salesId: 'VK-2026-004711' },
      }),
    ]);
    expect(await readdir(join(dir, '.archive', 'opentrans', '2026-01-16'))).toEqual([
      'AB-4711.xml',
    ]);
    // The same file again is a repeat, not a second message.
    const [again] = await read(inbox, 'AB-4711.xml', text);
    expect(again).toMatchObject({ status: 'repeat', repeat: 1 });
    expect(recorder.messages).toHaveLength(1);
  });

  it('reports, never writes, the line changes of an ORDERRESPONSE against the mirrored order', async () => {
    const inbox = open({}, (id) =>
      id === ORDER ? { orderType: 'single', record: mirrored } : undefined,
    );
    const text = orderResponse({
      orderId: ORDER,
      salesId: 'VK-1',
      lines: [
        { lineItemId: 'line-1', quantity: 2 },
        { lineItemId: 'line-9', quantity: 1 },
      ],
    });
    const [result] = await read(inbox, 'AB-1.xml', text);
    expect(result?.status === 'accepted' && result.notes).toEqual([
      `order ${ORDER}, line line-1: quantity 2.5 → 2`,
      `order ${ORDER}, line line-9: not a line of the order`,
      `order ${ORDER}, line line-2: missing from the order response`,
    ]);
    expect(recorder.messages.map((m) => m.body)).toEqual([
      { orderType: 'single', id: ORDER, salesId: 'VK-1' },
    ]);
    // Reported in the log, by file, for someone to act on.
    expect(logged).toContainEqual(
      expect.objectContaining({
        kind: 'opentrans',
        file: fileLabel('AB-1.xml'),
        notes: expect.arrayContaining([`order ${ORDER}, line line-1: quantity 2.5 → 2`]) as unknown,
        msg: expect.stringContaining(
          `inbox: opentrans/${fileLabel('AB-1.xml')} says what is not written`,
        ) as unknown,
      }),
    );
  });

  it('takes a DISPATCHNOTIFICATION: sent, with tracking from TRACKING_TRACING_URL first', async () => {
    const inbox = open({ trackingLinkTemplate: 'https://carrier.example/t/{shipmentId}' });
    const text = dispatchNotification({
      shipmentId: '00340434161094042557',
      trackingUrl: 'https://dhl.example/?piececode=00340434161094042557',
      lines: [
        { orderId: ORDER, lineItemId: 'line-1', quantity: 2.5, salesId: 'VK-1' },
        { orderId: ORDER, lineItemId: 'line-2', quantity: 10, salesId: 'VK-1' },
      ],
    });
    const [result] = await read(inbox, 'LS-1.xml', text);
    expect(result).toMatchObject({ status: 'accepted', accepted: 1 });
    expect(recorder.messages.map((m) => [m.kind, m.body])).toEqual([
      [
        'orderStatus',
        {
          orderType: 'single',
          id: ORDER,
          status: ORDER_STATUS.Sent,
          salesId: 'VK-1',
          trackingInfo: [
            {
              trackingCode: '00340434161094042557',
              trackingLink: 'https://dhl.example/?piececode=00340434161094042557',
            },
          ],
        },
      ],
    ]);
  });

  it('fills the link template without TRACKING_TRACING_URL; a part shipment is PartiallySent', async () => {
    const inbox = open({ trackingLinkTemplate: 'https://carrier.example/t/{shipmentId}' });
    const text = dispatchNotification({
      shipmentId: 'SH 7',
      lines: [{ orderId: ORDER, lineItemId: 'line-1', quantity: 1, completed: false }],
    });
    await read(inbox, 'LS-2.xml', text);
    expect(recorder.messages.map((m) => m.body)).toEqual([
      {
        orderType: 'single',
        id: ORDER,
        status: ORDER_STATUS.PartiallySent,
        trackingInfo: [{ trackingCode: 'SH 7', trackingLink: 'https://carrier.example/t/SH%207' }],
      },
    ]);
  });

  it('tells a part shipment from the mirrored order when the file does not say so', async () => {
    const inbox = open({}, (id) =>
      id === ORDER ? { orderType: 'single', record: mirrored } : undefined,
    );
    const text = dispatchNotification({
      shipmentId: 'SH-8',
      lines: [{ orderId: ORDER, lineItemId: 'line-1', quantity: 2.5 }],
    });
    const [result] = await read(inbox, 'LS-3.xml', text);
    expect(recorder.messages.map((m) => m.body.status)).toEqual([ORDER_STATUS.PartiallySent]);
    expect(result?.status === 'accepted' && result.notes).toEqual([
      `order ${ORDER}: PartiallySent, as line(s) line-2 of the order are not all shipped`,
    ]);
  });

  it("sends a direct order's tracking as an ERP order: direct orders carry no trackingInfo", async () => {
    // ORDER_ID is the order's _id; the mirror says it is a direct order.
    const inbox = open({}, (id) =>
      id === DIRECT ? { orderType: 'direct', record: { _id: DIRECT } } : undefined,
    );
    const text = dispatchNotification({
      shipmentId: 'SH-9',
      trackingUrl: 'https://carrier.example/SH-9',
      lines: [{ orderId: DIRECT, lineItemId: 'l-1', quantity: 3, salesId: 'VK-9' }],
    });
    const [result] = await read(inbox, 'LS-4.xml', text);
    expect(result).toMatchObject({ status: 'accepted', accepted: 2 });
    expect(recorder.messages.map((m) => [m.kind, m.name, m.body])).toEqual([
      [
        'orderStatus',
        `LS-4.xml#${DIRECT}`,
        { orderType: 'direct', id: DIRECT, status: ORDER_STATUS.Sent, salesId: 'VK-9' },
      ],
      [
        'erpOrder',
        `LS-4.xml#${DIRECT}`,
        {
          salesId: 'VK-9',
          patientCustomerId: 'K-10042',
          outboundDate: '2026-01-16T10:00:00Z',
          deliveryAddress: {
            name: 'Erika Mustermann',
            address: 'Hauptstraße 5',
            postalCode: '50667',
            city: 'Köln',
          },
          erpOrderedArticleLines: [{ unit: 'C62', quantity: 3, deliveredQuantity: 3 }],
          completed: true,
          trackingInfo: [{ trackingCode: 'SH-9', trackingLink: 'https://carrier.example/SH-9' }],
          trackingLink: 'https://carrier.example/SH-9',
        },
      ],
    ]);
  });

  it('sets aside a file that fails the schema, with the schema message, line and element', async () => {
    const inbox = open();
    const text = dispatchNotification({
      shipmentId: 'SH-1',
      lines: [{ orderId: ORDER, lineItemId: 'line-1', quantity: 1 }],
    }).replace('<QUANTITY>1</QUANTITY>', '<QUANTITY>eins</QUANTITY>');
    const line = text.slice(0, text.indexOf('<QUANTITY>eins')).split('\n').length;
    const [result] = await read(inbox, 'LS-bad.xml', text);
    expect(result).toMatchObject({ kind: 'opentrans', status: 'rejected' });
    expect(recorder.messages).toEqual([]);
    const report = await errorReport('LS-bad.xml');
    expect(report).toMatchObject({
      file: 'LS-bad.xml',
      kind: 'opentrans',
      reason: 'not valid against the openTRANS 2.1 schema',
      problems: [
        {
          line,
          path: 'DISPATCHNOTIFICATION/DISPATCHNOTIFICATION_ITEM_LIST/DISPATCHNOTIFICATION_ITEM/QUANTITY',
          message:
            "Element 'QUANTITY': 'eins' is not a valid value of the atomic type 'bmecat:dtNUMBER'.",
        },
      ],
    });
    expect(await readdir(join(dir, '.error', 'opentrans'))).toEqual([
      'LS-bad.xml',
      'LS-bad.xml.error.json',
    ]);
  });

  it('sets aside an answer naming an order the daemon does not know, by element and line', async () => {
    const inbox = open({}, () => undefined);
    const text = orderResponse({
      orderId: 'no-such-order',
      salesId: 'VK-1',
      lines: [{ lineItemId: 'l', quantity: 1 }],
    });
    const [result] = await read(inbox, 'AB-unknown.xml', text);
    expect(result).toMatchObject({ status: 'rejected' });
    expect((await errorReport('AB-unknown.xml')).problems).toEqual([
      {
        path: 'ORDERRESPONSE/ORDERRESPONSE_HEADER/ORDERRESPONSE_INFO/ORDER_ID',
        line: 5,
        message: 'ORDER_ID no-such-order names no single or direct order the daemon knows',
      },
    ]);
  });

  it('sets aside XXE and billion-laughs files with a report, and reads nothing they name', async () => {
    const inbox = open();
    const xxe =
      '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n' +
      '<ORDERRESPONSE xmlns="http://www.opentrans.org/XMLSchema/2.1" version="2.1">&xxe;</ORDERRESPONSE>\n';
    const laughs =
      '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n' +
      Array.from(
        { length: 9 },
        (_, n) => `<!ENTITY lol${n + 1} "${`&lol${n === 0 ? '' : n};`.repeat(10)}">`,
      ).join('\n') +
      '\n]>\n<ORDERRESPONSE xmlns="http://www.opentrans.org/XMLSchema/2.1" version="2.1">&lol9;</ORDERRESPONSE>\n';
    await mkdir(join(dir, 'opentrans'), { recursive: true });
    await writeFile(join(dir, 'opentrans', 'xxe.xml'), xxe);
    await writeFile(join(dir, 'opentrans', 'laughs.xml'), laughs);
    await inbox.scanOnce();
    clock.advance(MIN_AGE);
    const report = await inbox.scanOnce();
    expect(report.counts).toMatchObject({ rejected: 2, accepted: 0 });
    expect(recorder.messages).toEqual([]);
    for (const [name, line] of [
      ['xxe.xml', 2],
      ['laughs.xml', 2],
    ] as const) {
      const error = await errorReport(name);
      expect(error).toMatchObject({ reason: 'not readable as XML' });
      expect(error.problems).toEqual([
        {
          line,
          message: expect.stringMatching(
            /^the file has a DOCTYPE; document type declarations are refused/,
          ) as string,
        },
      ]);
      expect(JSON.stringify(error)).not.toContain('root:');
    }
  });

  it('refuses other documents and other extensions in opentrans/', async () => {
    const inbox = open();
    const order = orderResponse({
      orderId: ORDER,
      salesId: 'VK-1',
      lines: [{ lineItemId: 'l', quantity: 1 }],
    }).replaceAll('ORDERRESPONSE', 'INVOICE');
    await mkdir(join(dir, 'opentrans'), { recursive: true });
    await writeFile(join(dir, 'opentrans', 'invoice.xml'), order);
    await writeFile(join(dir, 'opentrans', 'status.json'), '{}');
    await inbox.scanOnce();
    clock.advance(MIN_AGE);
    const report = await inbox.scanOnce();
    expect(report.counts.rejected).toBe(2);
    expect(report.unknown).toEqual([]);
    expect((await errorReport('invoice.xml')).reason).toMatch(
      /^the root element is INVOICE .*openTRANS answers are ORDERRESPONSE or DISPATCHNOTIFICATION/,
    );
    expect((await errorReport('status.json')).reason).toBe(
      'file "status.json" does not end in .xml, so it is not read as an openTRANS answer',
    );
  });
});
