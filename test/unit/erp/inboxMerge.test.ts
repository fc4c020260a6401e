import { describe, expect, it } from 'vitest';
import { mergeByKey, oneMessagePerKey, type RowMessage } from '../../../src/erp/messages/merge.js';
import { KINDS } from '../../support/inboxKinds.js';

const erpOrder = KINDS.formats.erpOrder;
const orderStatus = KINDS.formats.orderStatus;

const row = (n: number, body: Record<string, unknown>, stamp?: string): RowMessage => ({
  body,
  ...(stamp === undefined ? {} : { stamp }),
  rows: [n],
  places: [{ line: n }],
});

const delivery = (line: string, parcel: string) => ({
  salesId: 'LS-1',
  patientCustomerId: 'K-1',
  outboundDate: '2026-03-03T13:30:00.000Z',
  deliveryAddress: { name: 'Erika Mustermann', city: 'Köln' },
  erpOrderedArticleLines: [{ articleDescription: line, quantity: 1 }],
  trackingInfo: [{ trackingCode: parcel }],
});

/** issue 36, item 2: one business key, one message per file (src/erp/messages/merge.ts). */
describe('the rows of one business key in one file', () => {
  it('are one message: lists joined, an entry the same in every field once, objects merged', () => {
    const merged = mergeByKey(
      erpOrder,
      [
        row(2, delivery('Kompresse', 'PK-1')),
        row(3, delivery('Fixiervlies', 'PK-1')),
        row(4, delivery('Kompresse', 'PK-2')),
        row(5, { ...delivery('Fixiervlies', 'PK-2'), deliveryAddress: { address: 'Weg 5' } }),
      ],
      'row',
      () => [],
    );
    expect(merged.problems).toEqual([]);
    expect(merged.messages).toEqual([
      {
        body: {
          ...delivery('Kompresse', 'PK-1'),
          deliveryAddress: { name: 'Erika Mustermann', city: 'Köln', address: 'Weg 5' },
          erpOrderedArticleLines: [
            { articleDescription: 'Kompresse', quantity: 1 },
            { articleDescription: 'Fixiervlies', quantity: 1 },
          ],
          trackingInfo: [{ trackingCode: 'PK-1' }, { trackingCode: 'PK-2' }],
        },
        rows: [2, 3, 4, 5],
        places: [{ line: 2 }, { line: 3 }, { line: 4 }, { line: 5 }],
      },
    ]);
  });

  it('keep apart what is about another key, in the order of each key’s first row', () => {
    const merged = mergeByKey(
      orderStatus,
      [
        row(2, { orderType: 'single', id: 'o-2', status: 4 }),
        row(3, { orderType: 'single', id: 'o-1', status: 4 }),
        row(4, { orderType: 'single', id: 'o-2', salesId: 'VK-2' }),
      ],
      'row',
      () => [],
    );
    expect(merged.messages.map((message) => [message.rows, message.body])).toEqual([
      [[2, 4], { orderType: 'single', id: 'o-2', status: 4, salesId: 'VK-2' }],
      [[3], { orderType: 'single', id: 'o-1', status: 4 }],
    ]);
  });

  it('are refused together where they give two values of one field, each naming the field', () => {
    const merged = mergeByKey(
      orderStatus,
      [
        row(2, { orderType: 'single', id: 'o-1', status: 4 }),
        row(3, { orderType: 'single', id: 'o-2', status: 1 }),
        row(4, { orderType: 'single', id: 'o-1', status: 5 }),
      ],
      'row',
      () => [],
    );
    expect(merged.messages.map((message) => message.rows)).toEqual([[3]]);
    expect(merged.problems).toEqual([
      {
        line: 2,
        path: 'status',
        message:
          'rows 2 and 4 say two values of status: 4 and 5; make them agree, or leave the field empty in all but one; none of them is taken (they are one orderStatus message, singleOrder:o-1)',
      },
      expect.objectContaining({ line: 4, path: 'status' }),
    ]);
  });

  it('are refused together where they give two ERP stamps', () => {
    const merged = mergeByKey(
      orderStatus,
      [
        row(2, { orderType: 'single', id: 'o-1', status: 4 }, '2026-03-03T10:00:00.000Z'),
        row(3, { orderType: 'single', id: 'o-1', status: 4 }, '2026-03-03T11:00:00.000Z'),
      ],
      'row',
      () => [],
    );
    expect(merged.messages).toEqual([]);
    expect(merged.problems.map((problem) => [problem.line, problem.path])).toEqual([
      [2, 'erpTimestamp'],
      [3, 'erpTimestamp'],
    ]);
  });

  it('are refused together when the merged message breaks a bound, and with a bad row of their key', () => {
    const tooMany = mergeByKey(
      orderStatus,
      [row(2, { orderType: 'single', id: 'o-1' }), row(3, { orderType: 'single', id: 'o-1' })],
      'record',
      () => [{ path: 'trackingInfo', message: 'at most 1,000 entries' }],
    );
    expect(tooMany.problems[0]?.message).toMatch(
      /^records 2 and 3 together are no valid message: at most 1,000 entries/,
    );
    const withBad = oneMessagePerKey(
      orderStatus,
      [row(2, { orderType: 'single', id: 'o-1', status: 4 })],
      new Set(['singleOrder:o-1']),
      'row',
    );
    expect(withBad.messages).toEqual([]);
    expect(withBad.problems).toEqual([
      {
        line: 2,
        message:
          'left out: another row of singleOrder:o-1 has a problem, and the rows of one orderStatus message go together',
      },
    ]);
  });

  it('keep a key named __proto__ a key of the message', () => {
    const evil = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const merged = mergeByKey(
      orderStatus,
      [
        row(2, { orderType: 'single', id: 'o-1', ...evil }),
        row(3, { orderType: 'single', id: 'o-1', status: 4 }),
      ],
      'row',
      () => [],
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(merged.messages[0]?.body ?? {})).toContain('__proto__');
  });
});
