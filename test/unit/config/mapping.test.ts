import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { KINDS } from '../../support/inboxKinds.js';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { dir, load, problems } = useConfigLoader();

/** The problems `config check` lists: the inbox's mappings checked against the kinds too. */
async function checked(yaml: string): Promise<string[]> {
  await dir.write('config.yaml', yaml);
  try {
    loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path(), inboxKinds: KINDS });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).problems];
  }
  throw new Error('expected the config to be refused');
}

const TABLES = `
    valueTables:
      orderStatus: { 0: NEU, 1: UEBERMITTELT, 4: VERSANDT }
      units: { Stück: ST, Stk: ST }
`;

describe('config: erp.file.mapping (outbound)', () => {
  it('takes a mapping and keeps it as written, the short form as { from }', async () => {
    const { config } = await load(`${MINIMAL}erp:
  file:
    format: csv${TABLES}    mapping:
      singleOrder:
        fields:
          Belegnr: _id
          Status: { from: status, table: orderStatus }
          Menge: { from: orderedArticleLines.quantity, decimals: 2 }
          Mandant: { value: '01' }
`);
    expect(config.erp.file.mapping.singleOrder?.fields).toEqual({
      Belegnr: { from: '_id' },
      Status: { from: 'status', table: 'orderStatus' },
      Menge: { from: 'orderedArticleLines.quantity', decimals: 2 },
      Mandant: { value: '01' },
    });
  });

  it('lists source paths the schema cannot have, by path, with the nearest field', async () => {
    const found = await problems(`${MINIMAL}erp:
  file:
    format: csv${TABLES}    mapping:
      singleOrder:
        fields:
          Kunde: patientCustomerld
          Menge: orderedArticleLines.quantiy
          Ort: deliveryAddress.city.name
          Code: trackingInfo.trackingCode
          Status: { from: status, table: orderStatuses }
          Datum: { from: deliveryDate, date: DD.MM.YYYY }
      article:
        fields: { Nummer: orderedArticleLines.articleId }
`);
    expect(found).toEqual([
      expect.stringMatching(
        /^erp\.file\.mapping\.singleOrder\.fields\.Kunde\.from: singleOrder: the record has no field patientCustomerld \(did you mean patientCustomerId\?\)/,
      ),
      expect.stringMatching(
        /^erp\.file\.mapping\.singleOrder\.fields\.Menge\.from: singleOrder: orderedArticleLines has no field quantiy \(did you mean orderedArticleLines\.quantity\?\)/,
      ),
      'erp.file.mapping.singleOrder.fields.Ort.from: singleOrder: deliveryAddress.city is a value; it has no field name',
      'erp.file.mapping.singleOrder.fields.Code.from: singleOrder: trackingInfo is a list: name an entry by its number, e.g. trackingInfo.0.trackingCode',
      'erp.file.mapping.singleOrder.fields.Status.table: erp.file.valueTables has no table orderStatuses (did you mean orderStatus?); tables: orderStatus, units',
      expect.stringMatching(
        /^erp\.file\.mapping\.singleOrder\.fields\.Datum\.date: "D" is no part of a date pattern/,
      ),
      expect.stringMatching(
        /^erp\.file\.mapping\.article\.fields\.Nummer\.from: article: the record has no field orderedArticleLines/,
      ),
    ]);
  });

  it('names a misspelt key of a field, and asks for from or value', async () => {
    const found = await problems(`${MINIMAL}erp:
  file:
    mapping:
      patient:
        fields:
          Nummer: { fron: customerId }
`);
    expect(found).toEqual([
      expect.stringMatching(
        /^erp\.file\.mapping\.patient\.fields\.Nummer\.fron: unknown key \(did you mean from\?\)/,
      ),
      'erp.file.mapping.patient.fields.Nummer: give from (where the value comes from) or value (a constant)',
    ]);
    const none = await problems(`${MINIMAL}erp:
  file:
    mapping:
      patient:
        fields:
          Nummer: { table: x, default: 1 }
`);
    expect(none).toEqual([
      'erp.file.mapping.patient.fields.Nummer: give from (where the value comes from) or value (a constant)',
      'erp.file.mapping.patient.fields.Nummer.table: erp.file.valueTables has no table x; none are defined',
    ]);
  });

  it('refuses layouts the format cannot write, and a second layout for the same resource', async () => {
    const csv = await problems(`${MINIMAL}erp:
  file:
    format: csv
    csv: { columns: { singleOrder: [_id] } }
    mapping:
      singleOrder: { lines: nested, linesAs: Positionen, fields: { A: _id } }
`);
    expect(csv).toEqual([
      expect.stringMatching(
        /^erp\.file\.mapping\.singleOrder: csv\.columns\.singleOrder chooses the columns too/,
      ),
      'erp.file.mapping.singleOrder.lines: a CSV file writes one row per order line: set lines: rows, or leave it out',
      'erp.file.mapping.singleOrder.linesAs: no list of lines to name: CSV writes rows',
    ]);
    const xml = await problems(`${MINIMAL}erp:
  file:
    format: xml
    openTrans: true
    mapping:
      singleOrder: { fields: { A: _id } }
      patient: { root: 1Patient, fields: { 'Name 1': lastName, Adresse: city, Adresse.Ort: city } }
`);
    expect(xml).toEqual([
      'erp.file.mapping.patient.root: 1Patient is no XML element name',
      'erp.file.mapping.patient.fields.Name 1: Name 1 is no XML element name',
      'erp.file.mapping.patient.fields.Adresse.Ort: Adresse is a value of its own, so it cannot hold Adresse.Ort; rename one of them',
      expect.stringMatching(
        /^erp\.file\.mapping\.singleOrder: openTrans writes singleOrder as openTRANS ORDER documents/,
      ),
    ]);
  });
});

describe('config: erp.file.inboxMapping (inbound), checked against the kinds', () => {
  it('names unknown kinds and targets the kind cannot have, with the nearest', async () => {
    const found = await checked(`${MINIMAL}erp:
  file:${TABLES}    inboxMapping:
      orderStatuss: { format: csv, fields: { id: A } }
      orderStatus:
        format: csv
        fields:
          id: Auftrag
          salesld: Beleg
          trackingInfo: Sendung
          status: { from: Status, table: units }
      erpOrder:
        format: xml
        fields:
          salesId: Kopf/Beleg
          erpOrderedArticleLines.quantity: Menge
`);
    expect(found).toEqual([
      expect.stringMatching(
        /^erp\.file\.inboxMapping\.orderStatuss: no inbox kind orderStatuss \(did you mean orderStatus\?\)/,
      ),
      expect.stringMatching(
        /^erp\.file\.inboxMapping\.orderStatus\.fields\.salesld: the record has no field salesld \(did you mean salesId\?\)/,
      ),
      expect.stringMatching(
        /^erp\.file\.inboxMapping\.orderStatus\.fields\.trackingInfo: trackingInfo holds more than one value/,
      ),
      "erp.file.inboxMapping.orderStatus.fields.status.table: table units gives ST for more than one platform value, so a file's value cannot be read back; give the inbox a table of its own",
      expect.stringMatching(/^erp\.file\.inboxMapping\.erpOrder\.records: required for xml/),
      expect.stringMatching(
        /^erp\.file\.inboxMapping\.erpOrder\.lines: fields of lines are mapped/,
      ),
    ]);
  });

  it('wants column numbers without a header, and names for it', async () => {
    const found = await checked(`${MINIMAL}erp:
  file:
    inboxMapping:
      orderStatus:
        format: csv
        header: false
        records: Zeile
        fields: { id: Auftrag, salesId: 2 }
`);
    expect(found).toEqual([
      'erp.file.inboxMapping.orderStatus.records: only for format xml',
      'erp.file.inboxMapping.orderStatus.fields.id.from: without a header, name the column by its number (1 is the first)',
    ]);
  });

  it('columns: named needs a header and CSV, and lets fields be left out; listed needs fields', async () => {
    const found = await checked(`${MINIMAL}erp:
  file:
    inboxMapping:
      orderStatus: { format: csv, header: false, columns: named }
      patient: { format: xml, records: Patient, columns: named, fields: { customerId: Nr } }
`);
    const unlisted = await checked(`${MINIMAL}erp:
  file:
    inboxMapping:
      device: { format: csv }
`);
    expect(unlisted).toEqual([
      expect.stringMatching(/^erp\.file\.inboxMapping\.device\.fields: map at least one field/),
    ]);
    expect(found).toEqual([
      'erp.file.inboxMapping.orderStatus.columns: named columns are named by the header: remove header: false, or columns: named',
      'erp.file.inboxMapping.patient.columns: only for format csv',
    ]);
    const { config } = await load(`${MINIMAL}erp:
  file:
    inboxMapping:
      orderStatus: { format: csv, columns: named }
`);
    expect(config.erp.file.inboxMapping.orderStatus).toEqual({
      format: 'csv',
      columns: 'named',
      fields: {},
    });
  });
});
