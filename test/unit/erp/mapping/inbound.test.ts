import { describe, expect, it } from 'vitest';
import {
  inboundMapping,
  mapRecord,
  type InboundMapping,
  type InboundMappingSpec,
  type InputLine,
  type InputRecord,
} from '../../../../src/erp/mapping/index.js';
import { KINDS } from '../../../support/inboxKinds.js';

const CONTEXT = {
  tables: { orderStatus: { 1: 'OFFEN', 4: 'VERSANDT', 10: 'TEIL' } },
  timeZone: 'Europe/Berlin',
  decimalComma: true,
};

function compiled(kind: string, spec: InboundMappingSpec): InboundMapping {
  const shape = KINDS.find(kind)?.shape();
  if (shape === undefined) throw new Error(`no kind ${kind}`);
  const result = inboundMapping(kind, shape, spec, CONTEXT);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.mapping;
}

/** A CSV-like row: cells by column name, on a line of the file. */
function row(line: number, cells: Record<string, string>): InputLine {
  return {
    where: { line },
    cell: (field) => {
      const column = String(field.spec.from);
      return { text: cells[column], where: { line, column } };
    },
  };
}
const record = (first: InputLine, lines: InputLine[] = []): InputRecord => ({ ...first, lines });

describe('mapping: inbound', () => {
  const status = compiled('orderStatus', {
    format: 'csv',
    fields: {
      orderType: { value: 'single' },
      id: { from: 'Shop-Auftrag' },
      salesId: { from: 'Beleg' },
      status: { from: 'Status', table: 'orderStatus' },
      'trackingInfo.0.trackingCode': { from: 'Sendung' },
    },
  });

  it('reads columns into fields, back through the table, typed as the message wants', () => {
    const message = mapRecord(
      status,
      record(
        row(2, { 'Shop-Auftrag': 'o-1', Beleg: ' VK-1 ', Status: 'VERSANDT', Sendung: 'SH1' }),
      ),
    );
    expect(message.problems).toEqual([]);
    expect(message.body).toEqual({
      orderType: 'single',
      id: 'o-1',
      salesId: 'VK-1',
      status: 4,
      trackingInfo: [{ trackingCode: 'SH1' }],
    });
  });

  it('leaves empty cells out, and names a value the table lacks by line and column', () => {
    const message = mapRecord(
      status,
      record(row(3, { 'Shop-Auftrag': 'o-2', Beleg: '', Status: 'STORNO', Sendung: '' })),
    );
    expect(message.problems).toEqual([
      {
        line: 3,
        column: 'Status',
        path: 'status',
        message: '"STORNO" is not in table orderStatus (its values: OFFEN, VERSANDT, TEIL)',
      },
    ]);
    expect(message.body).toEqual({ orderType: 'single', id: 'o-2' });
  });

  it('fills the lines from the rows of one order, with dates, decimal commas and defaults', () => {
    const erpOrder = compiled('erpOrder', {
      format: 'csv',
      fields: {
        salesId: { from: 'Beleg' },
        outboundDate: { from: 'Versand', date: 'dd.MM.yyyy HH:mm' },
        completed: { from: 'Fertig', default: 'nein' },
        'erpOrderedArticleLines.articleId': { from: 'Artikel' },
        'erpOrderedArticleLines.quantity': { from: 'Menge' },
      },
    });
    const first = row(2, {
      Beleg: 'VK-9',
      Versand: '04.03.2026 14:30',
      Artikel: 'a',
      Menge: '2,5',
    });
    const second = row(3, { Beleg: 'VK-9', Versand: '04.03.2026 14:30', Artikel: 'b', Menge: 'x' });
    const message = mapRecord(erpOrder, record(first, [first, second]));
    expect(message.body).toEqual({
      salesId: 'VK-9',
      outboundDate: '2026-03-04T13:30:00.000Z',
      completed: false,
      erpOrderedArticleLines: [{ articleId: 'a', quantity: 2.5 }, { articleId: 'b' }],
    });
    expect(message.problems).toEqual([
      {
        line: 3,
        column: 'Menge',
        path: 'erpOrderedArticleLines.quantity',
        message: 'expected a number, got "x"',
      },
    ]);
    expect(message.locate('erpOrderedArticleLines.1.articleId')).toEqual({
      line: 3,
      column: 'Artikel',
    });
  });
});
