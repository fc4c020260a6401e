import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
  recordBaseName,
  type FileAdapterOptions,
} from '../../../src/erp/outbound/file/index.js';
import { DEFAULT_CSV_OPTIONS } from '../../../src/erp/formats/index.js';
import type { OutboundMappingSpec } from '../../../src/erp/mapping/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { singleOrder, tempFolder } from '../../support/erp/fileDropSupport.js';

const TABLES = { auftragsstatus: { 0: 'NEU', 1: 'UEBERMITTELT' }, einheiten: { Stück: 'ST' } };

/** A German ERP's order import: its column names, codes and number format. */
const ORDER_MAPPING: OutboundMappingSpec = {
  fields: {
    Belegnummer: { from: '_id' },
    Kundennummer: { from: 'patientCustomerId', width: 10, align: 'right', pad: '0' },
    Status: { from: 'status', table: 'auftragsstatus' },
    Lieferdatum: { from: 'creationDate', date: 'dd.MM.yyyy' },
    Mandant: { value: '01' },
    Artikel: { from: 'orderedArticleLines.articleCustomerNumber' },
    Menge: { from: 'orderedArticleLines.quantity', decimals: 2 },
    Einheit: { from: 'orderedArticleLines.unit', table: 'einheiten' },
  },
};

describe('file adapter: mapped files (erp.file.mapping)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempFolder()));
  afterEach(() => cleanup());

  async function write(
    records: OutboundRecord[],
    options: Partial<FileAdapterOptions>,
    name: string,
  ): Promise<Buffer> {
    const adapter = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: dir, valueTables: TABLES, ...options },
      { clock: new FakeClock() },
    );
    const outcomes = await adapter.deliver(records, 3);
    expect(outcomes.every((o) => o.status === 'delivered')).toBe(true);
    return readFile(join(dir, 'singleOrder', name));
  }

  it('csv: the mapping’s columns, one row per line, `;`, Windows-1252 and decimal comma', async () => {
    const order = singleOrder();
    const data = await write(
      [order],
      {
        format: 'csv',
        csv: {
          ...DEFAULT_CSV_OPTIONS,
          delimiter: ';',
          decimalComma: true,
          encoding: 'windows-1252',
          lineEnding: 'crlf',
        },
        mapping: { singleOrder: ORDER_MAPPING },
      },
      'singleOrder_0000000003.csv',
    );
    expect(iconv.decode(data, 'windows-1252')).toBe(
      [
        'Belegnummer;Kundennummer;Status;Lieferdatum;Mandant;Artikel;Menge;Einheit',
        `${order.id};000K-10042;NEU;14.01.2026;01;100-200;2,50;ST`,
        `${order.id};000K-10042;NEU;14.01.2026;01;100-300;10,00;Packung`,
        '',
      ].join('\r\n'),
    );
  });

  it('csv: a field’s own date pattern stands; dateFormat de writes the dates without one', async () => {
    const data = await write(
      [singleOrder()],
      {
        format: 'csv',
        csv: { ...DEFAULT_CSV_OPTIONS, dateFormat: 'de' },
        mapping: {
          singleOrder: {
            fields: {
              Tag: { from: 'creationDate', date: 'yyyy-MM-dd' },
              Datum: { from: 'creationDate' },
            },
          },
        },
      },
      'singleOrder_0000000003.csv',
    );
    expect(data.toString('utf8')).toBe('Tag,Datum\n2026-01-14,14.01.2026\n');
  });

  it('json: the record nested in the ERP’s names, lines as a list', async () => {
    const order = singleOrder();
    const data = await write(
      [order],
      {
        format: 'json',
        mapping: {
          singleOrder: {
            linesAs: 'Positionen',
            fields: {
              'Kopf.Beleg': { from: '_id' },
              'Kopf.Status': { from: 'status', table: 'auftragsstatus' },
              Artikel: { from: 'orderedArticleLines.articleCustomerNumber' },
            },
          },
        },
      },
      `${recordBaseName(order.id, order.version)}.json`,
    );
    expect(JSON.parse(data.toString('utf8'))).toEqual({
      Kopf: { Beleg: order.id, Status: 'NEU' },
      Positionen: [{ Artikel: '100-200' }, { Artikel: '100-300' }],
    });
  });

  it('ndjson: with lines as rows, one line of the file per order line', async () => {
    const data = await write(
      [singleOrder()],
      {
        format: 'ndjson',
        mapping: {
          singleOrder: {
            lines: 'rows',
            fields: {
              Kunde: { from: 'patientCustomerId' },
              Menge: { from: 'orderedArticleLines.quantity' },
            },
          },
        },
      },
      'singleOrder_0000000003.ndjson',
    );
    expect(data.toString('utf8')).toBe(
      '{"Kunde":"K-10042","Menge":2.5}\n{"Kunde":"K-10042","Menge":10}\n',
    );
  });

  it('xml: the mapped record under the root element the mapping names', async () => {
    const order = singleOrder();
    const data = await write(
      [order],
      {
        format: 'xml',
        mapping: {
          singleOrder: {
            root: 'Auftrag',
            linesAs: 'Position',
            fields: {
              Beleg: { from: '_id' },
              Artikel: { from: 'orderedArticleLines.articleCustomerNumber' },
            },
          },
        },
      },
      `${recordBaseName(order.id, order.version)}.xml`,
    );
    expect(data.toString('utf8')).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<Auftrag>',
        `  <Beleg>${order.id}</Beleg>`,
        '  <Position>',
        '    <Artikel>100-200</Artikel>',
        '  </Position>',
        '  <Position>',
        '    <Artikel>100-300</Artikel>',
        '  </Position>',
        '</Auftrag>',
      ].join('\n'),
    );
  });
});
