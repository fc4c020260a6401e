import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INBOX_OPTIONS } from '../../../src/erp/inbound/index.js';
import type { InboundMappingSpec } from '../../../src/erp/mapping/index.js';
import { useInboxRig } from '../../support/erp/inboxRig.js';

/** A German ERP's article export: decimal comma, a quantity and a price per article. */
const ARTICLES: InboundMappingSpec = {
  format: 'csv',
  delimiter: ';',
  encoding: 'windows-1252',
  decimalComma: true,
  fields: {
    customerNumber: { from: 'Artikel' },
    name: { from: 'Name' },
    'packagingUnits.0.quantity': { from: 'Menge' },
    'packagingUnits.0.unit': { from: 'Einheit' },
    pharmacyPrice: { from: 'Preis' },
  },
};

describe('inbox: values are read exactly as the ERP wrote them', () => {
  const { scan, report, taken } = useInboxRig();
  const cp1252 = (lines: string[]) => iconv.encode(`${lines.join('\r\n')}\r\n`, 'windows-1252');
  const article = (body: Record<string, unknown>) => ({
    quantity: (body.packagingUnits as { quantity: unknown }[])[0]?.quantity,
    price: body.pharmacyPrice,
  });

  it('reads the decimal comma strictly: thousands only where they cannot be decimals, no hex, no exponent, no lost digits', async () => {
    await scan(
      'article',
      'artikel.csv',
      cp1252([
        'Artikel;Name;Menge;Einheit;Preis',
        'A-1;Kompresse;1000;ST;1.000,50',
        'A-2;Kompresse;1.000;ST;1000,50',
        'A-3;Kompresse;0x10;ST;1',
        'A-4;Kompresse;1e21;ST;1',
        'A-5;Kompresse;12345678901234567890,99;ST;1',
        'A-6;Kompresse;2,675;ST;12345678901234567890,99',
        'A-7;Kompresse;5;ST;1.5',
      ]),
      { mapping: { article: ARTICLES } },
    );
    expect(taken().map((m) => article(m.body))).toEqual([
      { quantity: 1000, price: '1000.50' },
      { quantity: 2.675, price: '12345678901234567890.99' },
    ]);
    const { problems } = await report('article', 'artikel.csv');
    expect(problems.map((p) => [p.line, p.column, p.message])).toEqual([
      [
        3,
        'Menge',
        expect.stringMatching(
          /^expected a number, got "1\.000": a "\." alone may group thousands or be a decimal separator; write it without \(1000\), or give the field a number pattern that groups thousands \(number: '#\.##0'\)$/,
        ),
      ],
      [4, 'Menge', expect.stringMatching(/"0x10": a hexadecimal, octal or binary form/)],
      [5, 'Menge', expect.stringMatching(/"1e21": an exponent form; write out all its digits/)],
      [
        6,
        'Menge',
        expect.stringMatching(
          /"12345678901234567890,99": 12345678901234567890\.99 has more digits than a JSON number keeps exactly .* it would arrive as 12345678901234567000/,
        ),
      ],
      [
        8,
        'Preis',
        expect.stringMatching(/"1\.5": "\." separates thousands in groups of three here/),
      ],
    ]);
  });

  it('reads a thousands separator alone where the field’s number pattern says so', async () => {
    const grouped: InboundMappingSpec = {
      ...ARTICLES,
      fields: {
        ...ARTICLES.fields,
        'packagingUnits.0.quantity': { from: 'Menge', number: '#.##0' },
      },
    };
    await scan(
      'article',
      'artikel.csv',
      cp1252(['Artikel;Name;Menge;Einheit;Preis', 'A-1;K;1.000;ST;2', 'A-2;K;1.000,5;ST;2']),
      { mapping: { article: grouped } },
    );
    expect(taken().map((m) => article(m.body))).toEqual([{ quantity: 1000, price: '2' }]);
    const { problems } = await report('article', 'artikel.csv');
    expect(problems).toEqual([
      expect.objectContaining({
        line: 3,
        message:
          'expected a number, got "1.000,5": the field\'s number pattern takes at most 0 decimals',
      }),
    ]);
  });

  it('reads the built-in article CSV by the same grammar, prices as decimal text', async () => {
    await scan(
      'article',
      'artikel.csv',
      [
        'customerNumber;name;packagingUnit1.quantity;packagingUnit1.unit;pharmacyPrice',
        '100-1;Kompresse;1.000;Stück;12,90',
        '100-2;Kompresse;10;Stück;1.012,90',
      ].join('\n'),
      { csv: { ...DEFAULT_INBOX_OPTIONS.csv, delimiter: ';', decimalComma: true } },
    );
    expect(taken().map((m) => article(m.body))).toEqual([{ quantity: 10, price: '1012.90' }]);
    const { problems } = await report('article', 'artikel.csv');
    expect(problems).toEqual([
      expect.objectContaining({
        row: 2,
        path: 'packagingUnit1.quantity',
        message: expect.stringMatching(/^expected a number, got "1\.000": a "\." alone/) as unknown,
      }),
    ]);
  });

  it('refuses a JSON message whose decimal text is not written as the platform writes it', async () => {
    const body = {
      customerNumber: '100-3',
      name: 'K',
      packagingUnits: [{ quantity: 1, unit: 'ST' }],
    };
    await scan('article', 'a.json', JSON.stringify({ ...body, listPrice: '12,90' }));
    expect(taken()).toEqual([]);
    const { problems } = await report('article', 'a.json');
    expect(problems).toEqual([
      {
        path: 'listPrice',
        message:
          '"12,90" is no decimal as the platform writes it: digits, with a point before the decimals (1000.50)',
      },
    ]);
  });
});
