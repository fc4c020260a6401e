import { describe, expect, it } from 'vitest';
import { DEFAULT_INBOX_OPTIONS } from '../../../src/erp/inbound/index.js';
import type { InboundMappingSpec } from '../../../src/erp/mapping/index.js';
import { useInboxRig } from '../../support/erp/inboxRig.js';

const utf16le = (text: string) =>
  Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

const PATIENTS_XML: InboundMappingSpec = {
  format: 'xml',
  records: 'Patient',
  fields: { customerId: { from: 'Nr' }, lastName: { from: 'Name' } },
};

describe('inbox: text only in the encoding the file provably has, nothing taken twice', () => {
  const { scan, report, taken: messages } = useInboxRig();
  const taken = () => messages().map((m) => m.body);

  it('refuses a UTF-16 file read as another encoding, and reads it where the mapping names UTF-16', async () => {
    const file = utf16le('customerId,lastName\r\nKD-1,Müller\r\n');
    const windows1252 = {
      csv: { ...DEFAULT_INBOX_OPTIONS.csv, encoding: 'windows-1252' as const },
    };
    await scan('patient', 'kunden.csv', file, windows1252);
    expect(taken()).toEqual([]);
    const refused = await report('patient', 'kunden.csv');
    expect(refused.problems).toEqual([
      expect.objectContaining({
        line: 1,
        message:
          'the file starts with a UTF-16LE byte order mark, but is read as windows-1252: export it as windows-1252 or set encoding: utf-16le in its inboxMapping',
      }),
    ]);
    await scan('patient', 'kunden2.csv', file, {
      mapping: { patient: { format: 'csv', columns: 'named', encoding: 'utf-16le', fields: {} } },
    });
    expect(taken()).toEqual([{ customerId: 'KD-1', lastName: 'Müller' }]);
    await scan('patient', 'kunde.json', utf16le('{"customerId":"KD-2"}'));
    expect((await report('patient', 'kunde.json')).reason).toBe(
      'the file starts with a UTF-16LE byte order mark, but is read as utf-8: export it as utf-8 or set encoding: utf-16le in its inboxMapping',
    );
  });

  it('refuses NUL and other control characters in a cell, naming the row and column', async () => {
    await scan(
      'patient',
      'kunden.csv',
      'customerId,lastName\nKD-1,Mül\u0000ler\nKD-2,Meier\tSen.\n',
    );
    expect(taken()).toEqual([{ customerId: 'KD-2', lastName: 'Meier\tSen.' }]);
    expect((await report('patient', 'kunden.csv')).problems).toEqual([
      {
        line: 2,
        column: 'lastName',
        path: 'lastName',
        message:
          "the text holds the control character U+0000 at character 4; text may hold tab, line feed and carriage return, no other control character: correct the ERP's export",
      },
    ]);
  });

  it('refuses a header that names a column twice, in a listed mapping and the article CSV', async () => {
    await scan('patient', 'kunden.csv', 'Kunde;Name;Name\nKD-1;Meier;Müller\n', {
      mapping: {
        patient: {
          format: 'csv',
          delimiter: ';',
          fields: { customerId: { from: 'Kunde' }, lastName: { from: 'Name' } },
        },
      },
    });
    expect(taken()).toEqual([]);
    expect((await report('patient', 'kunden.csv')).problems).toEqual([
      {
        line: 1,
        column: 'Name',
        message:
          'the header names Name twice (columns 2 and 3): which one is meant cannot be told; name each column once',
      },
    ]);
    await scan('article', 'artikel.csv', 'customerNumber,name,name\n100-1,A,B\n');
    expect(taken()).toEqual([]);
    expect((await report('article', 'artikel.csv')).problems).toEqual([
      {
        row: 1,
        message:
          'the header names name twice (columns 2 and 3): which one is meant cannot be told; name each column once',
      },
    ]);
  });

  it('refuses an XML file whose declaration names ISO-8859-1 but whose bytes are UTF-8', async () => {
    const xml =
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<Patienten><Patient><Nr>K-1</Nr><Name>Müller</Name></Patient></Patienten>\n';
    await scan('patient', 'kunden.xml', Buffer.from(xml, 'utf8'), {
      mapping: { patient: PATIENTS_XML },
    });
    expect(taken()).toEqual([]);
    expect((await report('patient', 'kunden.xml')).reason).toMatch(
      /the XML declaration names ISO-8859-1, but the file is UTF-8 \(its umlauts would be read wrong/,
    );
  });

  it('refuses a repeated single-valued element and an element of an unknown namespace', async () => {
    const xml = [
      '<Patienten xmlns:x="urn:other">',
      '  <Patient><Nr>K-1</Nr><Nr>K-2</Nr><Name>Meier</Name></Patient>',
      '  <Patient><Nr>K-3</Nr><Name>Schmitz</Name></Patient>',
      '</Patienten>',
    ].join('\n');
    await scan('patient', 'kunden.xml', xml, { mapping: { patient: PATIENTS_XML } });
    expect(taken()).toEqual([{ customerId: 'K-3', lastName: 'Schmitz' }]);
    expect((await report('patient', 'kunden.xml')).problems).toEqual([
      {
        line: 2,
        element: 'Patienten/Patient[1]/Nr',
        path: 'customerId',
        message:
          'Nr is there 2 times; a field reads one element: which one is meant cannot be told',
      },
    ]);
    const foreign = [
      '<Patienten xmlns:x="urn:other">',
      '  <Patient><Nr>K-4</Nr><x:Name>Evil</x:Name><Name>Meier</Name></Patient>',
      '</Patienten>',
    ].join('\n');
    await scan('patient', 'fremd.xml', foreign, { mapping: { patient: PATIENTS_XML } });
    expect(taken()).toHaveLength(1);
    expect((await report('patient', 'fremd.xml')).problems).toEqual([
      {
        line: 2,
        element: 'Patienten/Patient/Name[1]',
        message:
          "the element Name is in the namespace urn:other, which is not the file's (none): elements of other namespaces are refused, not read",
      },
    ]);
  });

  it('refuses JSON with a key twice, a __proto__ key, a control character or a number beyond a double', async () => {
    const cases: [string, string, RegExp][] = [
      [
        'twice.json',
        '{"customerId":"K-1","lastName":"Meier","lastName":"Schmitz"}',
        /^the field lastName is there twice; which one is meant cannot be told: send each field once$/,
      ],
      [
        'proto.json',
        '{"customerId":"K-1","__proto__":{"lastName":"x"}}',
        /^the key __proto__ is refused: no message of the contract has it, and JavaScript takes it for the object's prototype$/,
      ],
      [
        'nested.json',
        '{"customerId":"K-1","careGivers":[{"role":"a","role":"b"}]}',
        /^careGivers\.0: the field role is there twice/,
      ],
    ];
    for (const [name, text, reason] of cases) {
      await scan('patient', name, text);
      expect((await report('patient', name)).reason, name).toMatch(reason);
    }
    await scan('patient', 'nul.json', '{"customerId":"K-\\u0000E1"}');
    expect((await report('patient', 'nul.json')).problems).toEqual([
      {
        path: 'customerId',
        message: expect.stringMatching(/^the text holds the control character U\+0000/) as unknown,
      },
    ]);
    await scan(
      'article',
      'big.json',
      '{"customerNumber":"1","name":"A","packagingUnits":[{"quantity":12345678901234567890.99,"unit":"ST"}]}',
    );
    expect((await report('article', 'big.json')).reason).toMatch(
      /^packagingUnits\.0\.quantity: 12345678901234567890\.99 has more digits than a JSON number keeps exactly/,
    );
    expect(taken()).toEqual([]);
  });
});
