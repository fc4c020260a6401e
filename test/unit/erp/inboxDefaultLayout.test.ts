import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createInbox,
  DEFAULT_INBOX_OPTIONS,
  type InboxOptions,
} from '../../../src/erp/inbound/index.js';
import { ARTICLE_CSV, inboxMappings, type KnownOrder } from '../../../src/erp/messages/index.js';
import { PUSH_BACK_KINDS } from '../../../src/pushback/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { AcceptRecorder, tempFolder } from '../../support/erp/fileDropSupport.js';

/** The orders the daemon's mirror holds: o-1, o-2 single, d-1 direct. */
const ORDERS: Record<string, KnownOrder> = {
  'o-1': { orderType: 'single', record: { _id: 'o-1' } },
  'o-2': { orderType: 'single', record: { _id: 'o-2', salesId: 'VK-2' } },
  'd-1': { orderType: 'direct', record: { _id: 'd-1' } },
};

interface Report {
  reason: string;
  problems: { line?: number; column?: string; path?: string; message: string }[];
}

/**
 * A kind's default layout (its descriptor's `inboxMapping`): without `erp.file.inboxMapping`
 * a CSV file in `<inbox>/<kind>/` is read with its header naming the message's fields; a
 * config mapping replaces it. The article kind keeps its own CSV (inboxCsv.test.ts).
 */
describe('inbox: each kind’s default CSV layout', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let recorder: AcceptRecorder;
  const clock = new FakeClock('2026-03-03T15:00:00.000Z');
  beforeEach(async () => {
    ({ dir, cleanup } = await tempFolder());
    recorder = new AcceptRecorder();
  });
  afterEach(() => cleanup());

  async function scan(kind: string, name: string, text: string, extra: Partial<InboxOptions> = {}) {
    const inbox = createInbox(
      { ...DEFAULT_INBOX_OPTIONS, inbox: dir, minFileAgeMs: 0, ...extra },
      {
        clock,
        kinds: KINDS,
        accept: recorder.accept,
        openTransOrder: (id) => ORDERS[id],
        ordersBySalesId: (salesId) =>
          Object.values(ORDERS).filter((order) => order.record.salesId === salesId),
      },
    );
    await mkdir(join(dir, kind), { recursive: true });
    await writeFile(join(dir, kind, name), text);
    await inbox.scanOnce();
    return inbox.scanOnce();
  }
  const report = async (kind: string, name: string) =>
    JSON.parse(await readFile(join(dir, '.error', kind, `${name}.error.json`), 'utf8')) as Report;

  it('every kind’s descriptor gives a default that fits its message', () => {
    const mappings = inboxMappings(
      { mapping: {}, valueTables: {}, timeZone: 'Europe/Berlin', decimalComma: false },
      KINDS,
    );
    for (const kind of PUSH_BACK_KINDS) {
      if (kind.inboxMapping === ARTICLE_CSV) continue;
      expect(mappings.get(kind.name), kind.name).toMatchObject({ kind: kind.name });
    }
    expect(PUSH_BACK_KINDS.find((kind) => kind.name === 'article')?.inboxMapping).toBe(ARTICLE_CSV);
  });

  it('reads an order status export whose header names the message’s fields', async () => {
    const result = await scan(
      'orderStatus',
      'status.csv',
      [
        'id,status,salesId,trackingInfo.trackingCode,trackingInfo.trackingLink',
        'o-1,4,VK-1,SH-1,https://t.example/SH-1',
        'o-1,4,VK-1,SH-2,',
        ',3,VK-2,,',
        'd-1,4,VK-3,SH-3,',
      ].join('\n'),
    );
    expect(result.files).toEqual([expect.objectContaining({ status: 'partial', accepted: 2 })]);
    // The rows of one order with the same status are one message, a parcel per row; the
    // order's type comes from the mirror; a row without a parcel sends no tracking.
    expect(recorder.messages.map((m) => [m.name, m.body])).toEqual([
      [
        'status.csv#2,3',
        {
          orderType: 'single',
          id: 'o-1',
          status: 4,
          salesId: 'VK-1',
          trackingInfo: [
            { trackingCode: 'SH-1', trackingLink: 'https://t.example/SH-1' },
            { trackingCode: 'SH-2' },
          ],
        },
      ],
      ['status.csv#4', { orderType: 'single', status: 3, salesId: 'VK-2' }],
    ]);
    const { problems } = await report('orderStatus', 'status.csv');
    expect(problems).toEqual([
      expect.objectContaining({
        line: 5,
        path: 'trackingInfo',
        message: expect.stringMatching(
          /is a direct order, which carries no trackingInfo/,
        ) as string,
      }),
    ]);
  });

  it('reads a patient CSV whose header names the patient’s fields', async () => {
    const result = await scan(
      'patient',
      'patients.csv',
      [
        'customerId,lastName,careDegree,deliveryInformation.startTime,additionalUserIds',
        'K-1,Meier,2,09:00,u-1|u-2',
        'K-2,Schmitz,,,',
      ].join('\n'),
    );
    expect(result.files).toEqual([expect.objectContaining({ status: 'accepted', accepted: 2 })]);
    expect(recorder.messages.map((m) => m.body)).toEqual([
      {
        customerId: 'K-1',
        lastName: 'Meier',
        careDegree: 2,
        deliveryInformation: { startTime: '09:00' },
        additionalUserIds: ['u-1', 'u-2'],
      },
      { customerId: 'K-2', lastName: 'Schmitz' },
    ]);
  });

  it('refuses a file with a column that names no field, with the nearest one', async () => {
    const result = await scan('patient', 'patients.csv', 'customerId,lastNmae\nK-1,Meier\n');
    expect(result.files).toEqual([expect.objectContaining({ status: 'rejected' })]);
    expect(recorder.messages).toEqual([]);
    const { reason, problems } = await report('patient', 'patients.csv');
    expect(reason).toMatch(/the header names columns that are no patient fields/);
    expect(problems).toEqual([
      {
        line: 1,
        column: 'lastNmae',
        message: expect.stringMatching(
          /has no field lastNmae \(did you mean lastName\?\)/,
        ) as string,
      },
    ]);
  });

  it('a config mapping replaces the default', async () => {
    const mapping = {
      orderStatus: {
        format: 'csv' as const,
        delimiter: ';',
        fields: { id: { from: 'Shop-Auftrag' }, salesId: { from: 'Beleg' } },
      },
    };
    const ours = await scan('orderStatus', 'ours.csv', 'id;salesId\no-1;VK-1\n', { mapping });
    expect(ours.files).toEqual([expect.objectContaining({ status: 'rejected' })]);
    expect((await report('orderStatus', 'ours.csv')).problems).toEqual([
      expect.objectContaining({
        line: 1,
        path: 'id',
        message: expect.stringMatching(/no column "Shop-Auftrag"/) as string,
      }),
      expect.objectContaining({
        line: 1,
        path: 'salesId',
        message: expect.stringMatching(/no column "Beleg"/) as string,
      }),
    ]);
    const theirs = await scan('orderStatus', 'theirs.csv', 'Shop-Auftrag;Beleg\no-1;VK-1\n', {
      mapping,
    });
    expect(theirs.files).toEqual([expect.objectContaining({ status: 'accepted', accepted: 1 })]);
    expect(recorder.messages.map((m) => m.body)).toEqual([
      { orderType: 'single', id: 'o-1', salesId: 'VK-1' },
    ]);
  });

  it('columns: named in a config mapping reads the listed columns and the fields by name', async () => {
    const mapping = {
      orderStatus: {
        format: 'csv' as const,
        columns: 'named' as const,
        fields: { id: { from: 'Shop-Auftrag' } },
      },
    };
    const result = await scan('orderStatus', 'status.csv', 'Shop-Auftrag,status\no-2,3\n', {
      mapping,
    });
    expect(result.files).toEqual([expect.objectContaining({ status: 'accepted', accepted: 1 })]);
    expect(recorder.messages.map((m) => m.body)).toEqual([
      { orderType: 'single', id: 'o-2', status: 3 },
    ]);
  });
});
