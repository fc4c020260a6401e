import { describe, expect, it } from 'vitest';
import {
  nestedObject,
  outboundMapping,
  outboundRows,
  rowObjects,
  type OutboundMappingSpec,
} from '../../../../src/erp/mapping/index.js';
import { singleOrder } from '../../../support/erp/fileDropSupport.js';

const TABLES = {
  orderStatus: { 0: 'NEU', 1: 'UEBERMITTELT' },
  units: { Stück: 'ST', Packung: 'PAK' },
};
const CONTEXT = { tables: TABLES, timeZone: 'Europe/Berlin' };
const record = singleOrder({ status: 1, deliveryDate: '2026-03-04' }).record;

const mapping = (spec: OutboundMappingSpec, lines: 'rows' | 'nested' = 'rows') =>
  outboundMapping('singleOrder', spec, CONTEXT, lines);

describe('mapping: outbound', () => {
  it('renames, reads dot paths and lines, and repeats the header fields on each line row', () => {
    const rows = outboundRows(
      mapping({
        fields: {
          Beleg: { from: '_id' },
          Ort: { from: 'deliveryAddress.city' },
          Artikel: { from: 'orderedArticleLines.articleCustomerNumber' },
          Menge: { from: 'orderedArticleLines.quantity' },
          ErsteZeile: { from: 'orderedArticleLines.0._id' },
        },
      }),
      record,
    );
    expect(rows).toEqual([
      [record._id, 'Köln', '100-200', 2.5, 'line-1'],
      [record._id, 'Köln', '100-300', 10, 'line-1'],
    ]);
  });

  it('translates through value tables, keeps a value the table lacks, and writes defaults', () => {
    const rows = outboundRows(
      mapping({
        fields: {
          Status: { from: 'status', table: 'orderStatus' },
          Einheit: { from: 'orderedArticleLines.unit', table: 'units', default: 'ST' },
          Lager: { from: 'regionId', default: 'HAUPT' },
          Mandant: { value: '01' },
        },
      }),
      singleOrder({
        status: 1,
        orderedArticleLines: [
          { _id: 'a', unit: 'Packung' },
          { _id: 'b', unit: 'Rolle' },
          { _id: 'c', unit: null },
        ],
      }).record,
    );
    expect(rows).toEqual([
      ['UEBERMITTELT', 'PAK', 'HAUPT', '01'],
      ['UEBERMITTELT', 'Rolle', 'HAUPT', '01'],
      ['UEBERMITTELT', 'ST', 'HAUPT', '01'],
    ]);
  });

  it('formats dates by pattern (date-times in the time zone) and numbers with fixed decimals', () => {
    const [row] = outboundRows(
      mapping({
        fields: {
          Liefertag: { from: 'deliveryDate', date: 'dd.MM.yyyy' },
          Stand: { from: 'timestamp', date: 'yyyyMMdd HH:mm' },
          Menge: { from: 'orderedArticleLines.quantity', decimals: 2 },
        },
      }),
      record,
    );
    // 08:00 UTC on 15 January is 09:00 in Berlin.
    expect(row).toEqual(['04.03.2026', '20260115 09:00', '2.50']);
  });

  it('writes one row per record when no field reads a line', () => {
    expect(outboundRows(mapping({ fields: { Beleg: { from: '_id' } } }), record)).toHaveLength(1);
  });

  it('nests: header fields as (dot path) keys, line fields in a list under linesAs', () => {
    const nested = nestedObject(
      mapping(
        {
          linesAs: 'Positionen',
          fields: {
            'Kopf.Beleg': { from: '_id' },
            'Kopf.Kunde': { from: 'patientCustomerId' },
            'Kopf.Verkauf': { from: 'salesId' },
            Artikel: { from: 'orderedArticleLines.articleCustomerNumber' },
            Menge: { from: 'orderedArticleLines.quantity', decimalComma: true },
            Lager: { value: 7, width: 4, align: 'right', pad: '0' },
          },
        },
        'nested',
      ),
      record,
    );
    expect(nested).toEqual({
      Kopf: { Beleg: record._id, Kunde: 'K-10042', Verkauf: null },
      Lager: '0007',
      Positionen: [
        { Artikel: '100-200', Menge: '2,5' },
        { Artikel: '100-300', Menge: '10' },
      ],
    });
  });

  it('writes rows as objects, for JSON rows and NDJSON lines', () => {
    const rows = rowObjects(
      mapping({
        fields: { Beleg: { from: '_id' }, Artikel: { from: 'orderedArticleLines.articleId' } },
      }),
      record,
    );
    expect(rows).toEqual([
      { Beleg: record._id, Artikel: 'art-1' },
      { Beleg: record._id, Artikel: 'art-2' },
    ]);
  });
});
