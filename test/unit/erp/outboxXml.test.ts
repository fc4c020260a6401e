import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

/** The parts of an openTRANS ORDER the test reads, as fast-xml-parser returns them. */
interface OpenTransXml {
  ORDER: {
    '@_version': string;
    ORDER_HEADER: {
      ORDER_INFO: {
        ORDER_ID: string;
        ORDER_DATE: string;
        PARTIES: {
          PARTY: { PARTY_ROLE: string; PARTY_ID: unknown[]; ADDRESS?: Record<string, string> }[];
        };
      };
    };
    ORDER_ITEM_LIST: {
      ORDER_ITEM: {
        LINE_ITEM_ID: string;
        PRODUCT_ID: { SUPPLIER_PID: string };
        QUANTITY: string;
        ORDER_UNIT: string;
      }[];
    };
    ORDER_SUMMARY: { TOTAL_ITEM_NUM: string };
  };
}

describe('file adapter: xml', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  async function write(item: OutboundRecord, openTrans: boolean): Promise<string> {
    const options = { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, format: 'xml' as const };
    const adapter = await createFileAdapter({ ...options, openTrans }, { clock: new FakeClock() });
    expect(await adapter.deliver([item], 1)).toEqual([{ status: 'delivered' }]);
    const text = await readFile(
      join(dir, item.resource, `${item.id}_2026-01-15T08-00-00.000Z.xml`),
    );
    return text.toString('utf8');
  }

  it('writes well-formed XML with arrays as repeated elements and safe element names', async () => {
    const order = singleOrder({
      annotation: 'a < b & "c"\u0001',
      tags: ['eilig', 'neu'],
      '3d-model': 'x',
      'with space': 'y',
    });
    const text = await write(order, false);
    expect(XMLValidator.validate(text)).toBe(true);
    const parsed = new XMLParser({ parseTagValue: false }).parse(text) as {
      singleOrder: Record<string, unknown>;
    };
    const root = parsed.singleOrder;
    expect(root._id).toBe(order.id);
    expect(root.annotation).toBe('a < b & "c"\uFFFD');
    expect(root.tags).toEqual(['eilig', 'neu']);
    expect(root['_3d-model']).toBe('x');
    expect(root.with_space).toBe('y');
    expect(root.salesId).toBeUndefined();
    expect(root.deliveryAddress).toEqual({
      name: 'Erika Mustermann',
      address: 'Hauptstraße 5',
      postalCode: '50667',
      city: 'Köln',
    });
    const lines = root.orderedArticleLines as Record<string, string>[];
    expect(lines.map((l) => [l._id, l.articleCustomerNumber, l.quantity])).toEqual([
      ['line-1', '100-200', '2.5'],
      ['line-2', '100-300', '10'],
    ]);
  });

  it('writes single orders as openTRANS 2.1 ORDER documents', async () => {
    const order = singleOrder();
    const lines = order.record.orderedArticleLines as Record<string, unknown>[];
    lines.push({ _id: 'line-3', articleCustomerNumber: 'gone', quantity: 1, archived: true });
    const text = await write(order, true);
    const raw = new XMLParser({ ignoreAttributes: false }).parse(text) as {
      ORDER: Record<string, unknown>;
    };
    expect(raw.ORDER['@_xmlns']).toBe('http://www.opentrans.org/XMLSchema/2.1');
    expect(raw.ORDER['@_xmlns:bmecat']).toBe('http://www.bmecat.org/bmecat/2005');
    const parser = new XMLParser({
      ignoreAttributes: false,
      removeNSPrefix: true,
      parseTagValue: false,
      isArray: (name) => ['ORDER_ITEM', 'PARTY_ID', 'PARTY'].includes(name),
    });
    const { ORDER } = parser.parse(text) as OpenTransXml;
    expect(ORDER['@_version']).toBe('2.1');
    const info = ORDER.ORDER_HEADER.ORDER_INFO;
    expect(info.ORDER_ID).toBe(order.id);
    expect(info.ORDER_DATE).toBe('2026-01-14');
    expect(info.PARTIES.PARTY.map((p) => p.PARTY_ROLE)).toEqual(['buyer', 'supplier', 'delivery']);
    const party = info.PARTIES.PARTY[2];
    if (party === undefined) throw new Error('no delivery party');
    expect(party.PARTY_ID).toEqual([
      { '#text': 'K-10042', '@_type': 'supplier_specific' },
      { '#text': 'a1b2c3d4-0000-4000-8000-000000000001', '@_type': 'buyer_specific' },
    ]);
    expect(party.ADDRESS).toEqual({
      NAME: 'Erika Mustermann',
      STREET: 'Hauptstraße 5',
      ZIP: '50667',
      CITY: 'Köln',
    });
    const items = ORDER.ORDER_ITEM_LIST.ORDER_ITEM;
    expect(
      items.map((i) => [i.LINE_ITEM_ID, i.PRODUCT_ID.SUPPLIER_PID, i.QUANTITY, i.ORDER_UNIT]),
    ).toEqual([
      ['line-1', '100-200', '2.5', 'C62'],
      ['line-2', '100-300', '10', 'PK'],
    ]);
    expect(ORDER.ORDER_SUMMARY.TOTAL_ITEM_NUM).toBe('2');
  });

  it('writes resources openTRANS has no document for as plain XML', async () => {
    const patient: OutboundRecord = {
      resource: 'patient',
      id: 'p-1',
      version: '2026-01-15T08:00:00.000Z',
      record: { _id: 'p-1', customerId: 'K-1' },
    };
    const text = await write(patient, true);
    expect(new XMLParser().parse(text)).toEqual({
      '?xml': '',
      patient: { _id: 'p-1', customerId: 'K-1' },
    });
  });
});
