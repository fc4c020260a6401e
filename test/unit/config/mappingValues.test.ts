import { describe, expect, it } from 'vitest';
import { KINDS } from '../../support/inboxKinds.js';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

/** `config check` as the CLI runs it: the inbox's mappings checked against the kinds too. */
const { problems } = useConfigLoader({ inboxKinds: KINDS });

describe('config check: mappings that would alter values or the process', () => {
  it('refuses a width on an identifier, naming the path', async () => {
    const found = await problems(`${MINIMAL}erp:
  file:
    format: csv
    mapping:
      singleOrder:
        fields:
          Beleg: { from: _id, width: 8 }
          Kunde: { from: patientCustomerId, width: 10, align: right, pad: '0' }
          Artikel: { from: orderedArticleLines.articleCustomerNumber, width: 12 }
          Auftrag: { from: salesId, width: 12 }
          Ort: { from: deliveryAddress.city, width: 20 }
          Menge: { from: orderedArticleLines.quantity, width: 6, align: right }
`);
    expect(found).toEqual([
      'erp.file.mapping.singleOrder.fields.Beleg.width: _id is an identifier: a width would pad it into another one (and a longer one is refused, never cut); remove width',
      'erp.file.mapping.singleOrder.fields.Kunde.width: patientCustomerId is an identifier: a width would pad it into another one (and a longer one is refused, never cut); remove width',
      'erp.file.mapping.singleOrder.fields.Artikel.width: orderedArticleLines.articleCustomerNumber is an identifier: a width would pad it into another one (and a longer one is refused, never cut); remove width',
      'erp.file.mapping.singleOrder.fields.Auftrag.width: salesId is an identifier: a width would pad it into another one (and a longer one is refused, never cut); remove width',
    ]);
  });

  it('refuses __proto__, constructor and prototype in targets and sources, both ways', async () => {
    const found = await problems(`${MINIMAL}erp:
  file:
    format: json
    mapping:
      singleOrder:
        fields:
          __proto__.polluted: patient.lastName
          Kopf.constructor: _id
          Ort: { from: deliveryAddress.prototype }
    inboxMapping:
      orderStatus:
        format: csv
        fields:
          id: Auftrag
          __proto__.x: Status
      patient: { format: xml, records: Patient, fields: { customerId: prototype/Nr } }
`);
    const why =
      'no part of a path may be __proto__, constructor or prototype (names JavaScript gives every object); rename it';
    expect(found).toEqual(
      expect.arrayContaining([
        `erp.file.mapping.singleOrder.fields.__proto__.polluted: ${why}`,
        `erp.file.mapping.singleOrder.fields.Kopf.constructor: ${why}`,
        `erp.file.mapping.singleOrder.fields.Ort.from: ${why}`,
        `erp.file.inboxMapping.orderStatus.fields.__proto__.x: ${why}`,
        `erp.file.inboxMapping.patient.fields.customerId.from: ${why}`,
      ]),
    );
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('checks a number pattern against the decimal separator and the field', async () => {
    const found = await problems(`${MINIMAL}erp:
  file:
    csv: { profile: de }
    inboxMapping:
      article:
        format: csv
        fields:
          customerNumber: Artikel
          name: Name
          packagingUnits.0.quantity: { from: Menge, number: '#.##0' }
          packagingUnits.0.unit: Einheit
          pharmacyPrice: { from: Preis, number: '#,##0.00' }
          listPrice: { from: Liste, number: '0,00' }
          fixedPrice: { from: Fest, number: '#.##,00' }
          description: { from: Text, number: '0' }
`);
    expect(found).toEqual([
      expect.stringMatching(
        /^erp\.file\.inboxMapping\.article\.fields\.pharmacyPrice\.number: #,##0\.00 is no number pattern: .* then "," \(the decimal separator, by decimalComma\)/,
      ),
      expect.stringMatching(
        /^erp\.file\.inboxMapping\.article\.fields\.fixedPrice\.number: #\.##,00 is no number pattern/,
      ),
      'erp.file.inboxMapping.article.fields.description.number: description holds text, not a number; remove number',
    ]);
  });

  it('takes clockChange only beside a date pattern with a time', async () => {
    const found = await problems(`${MINIMAL}erp:
  file:
    inboxMapping:
      erpOrder:
        format: csv
        fields:
          salesId: Beleg
          outboundDate: { from: Versand, date: dd.MM.yyyy HH:mm, clockChange: earlier }
          annotation: { from: Notiz, clockChange: later }
          timestamp: { from: Stand, date: dd.MM.yyyy, clockChange: later }
`);
    const misspelt = await problems(`${MINIMAL}erp:
  file:
    inboxMapping:
      erpOrder:
        format: csv
        fields: { outboundDate: { from: Versand, date: dd.MM.yyyy HH:mm, clockChange: sooner } }
`);
    expect(misspelt).toEqual([
      expect.stringMatching(
        /^erp\.file\.inboxMapping\.erpOrder\.fields\.outboundDate\.clockChange: expected earlier or later/,
      ),
    ]);
    expect(found).toEqual([
      'erp.file.inboxMapping.erpOrder.fields.annotation.clockChange: clockChange says which instant a local time at a change of the clock is; it needs a date pattern with a time (HH)',
      'erp.file.inboxMapping.erpOrder.fields.timestamp.clockChange: clockChange says which instant a local time at a change of the clock is; it needs a date pattern with a time (HH)',
    ]);
  });
});
