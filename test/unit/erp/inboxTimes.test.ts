import { describe, expect, it } from 'vitest';
import { DEFAULT_INBOX_OPTIONS } from '../../../src/erp/inbound/index.js';
import type { ClockChange, InboundMappingSpec } from '../../../src/erp/mapping/index.js';
import { useInboxRig } from '../../support/erp/inboxRig.js';

/** An ERP's dispatch export: its local time of dispatch, in Berlin. */
const dispatches = (clockChange?: ClockChange): InboundMappingSpec => ({
  format: 'csv',
  delimiter: ';',
  fields: {
    salesId: { from: 'Beleg' },
    patientCustomerId: { from: 'Kunde' },
    outboundDate: {
      from: 'Versand',
      date: 'dd.MM.yyyy HH:mm',
      ...(clockChange === undefined ? {} : { clockChange }),
    },
    'deliveryAddress.name': { from: 'Name' },
    'erpOrderedArticleLines.articleId': { from: 'Artikel' },
    'erpOrderedArticleLines.quantity': { from: 'Menge' },
  },
});

const FILE = [
  'Beleg;Kunde;Versand;Name;Artikel;Menge',
  'VK-1;K-1;03.03.2026 15:20;Erika Mustermann;a-1;2',
  'VK-2;K-1;25.10.2026 02:30;Erika Mustermann;a-1;2',
  'VK-3;K-1;29.03.2026 02:30;Erika Mustermann;a-1;2',
  'VK-4;K-1;01.01.0026 10:00;Erika Mustermann;a-1;2',
].join('\n');

describe('inbox: local times read in the configured zone', () => {
  const rig = useInboxRig();

  async function scan(mapping: InboundMappingSpec) {
    await rig.scan('erpOrder', 'versand.csv', FILE, {
      csv: { ...DEFAULT_INBOX_OPTIONS.csv, timeZone: 'Europe/Berlin' },
      mapping: { erpOrder: mapping },
    });
    return {
      taken: rig.taken().map((m) => [m.body.salesId, m.body.outboundDate]),
      problems: (await rig.report('erpOrder', 'versand.csv')).problems,
    };
  }

  it('refuses a repeated or skipped hour and a year before 1900, each as its row', async () => {
    const { taken, problems } = await scan(dispatches());
    expect(taken).toEqual([['VK-1', '2026-03-03T14:20:00.000Z']]);
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [3, expect.stringMatching(/^"25\.10\.2026 02:30" is there twice in Europe\/Berlin/)],
      [4, expect.stringMatching(/^"29\.03\.2026 02:30" does not exist in Europe\/Berlin/)],
      [5, '"01.01.0026 10:00": the year 0026 is before 1900; check the date the ERP wrote'],
    ]);
  });

  it('takes the instant clockChange names', async () => {
    const { taken, problems } = await scan(dispatches('later'));
    expect(taken).toEqual([
      ['VK-1', '2026-03-03T14:20:00.000Z'],
      ['VK-2', '2026-10-25T01:30:00.000Z'],
      ['VK-3', '2026-03-29T01:30:00.000Z'],
    ]);
    expect(problems.map((p) => p.line)).toEqual([5]);
  });
});
