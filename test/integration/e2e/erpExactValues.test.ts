import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { useAppCycle } from '../../support/appCycle.js';

/**
 * Issue 36's values, from the ERP's file to the platform: a German article export (decimal
 * comma, Windows-1252) through the inbox, the queue and the platform client into the
 * simulator. The platform gets the ERP's digits; what a number cannot carry exactly, what is
 * written ambiguously and what holds a control character stays out, each with its reason.
 */
describe('an ERP article export reaches the platform with its values unaltered', () => {
  const cycle = useAppCycle({
    variant: 'B',
    file: {
      csv: { profile: 'de' },
      inboxMapping: {
        article: {
          format: 'csv',
          fields: {
            customerNumber: 'Artikel',
            name: 'Bezeichnung',
            'packagingUnits.0.quantity': 'Menge',
            'packagingUnits.0.unit': 'Einheit',
            pharmacyPrice: 'AVP',
            listPrice: 'Liste',
          },
        },
      },
    },
  });

  it('writes the exact digits and sets the bad rows aside', async () => {
    const { sim, rig } = cycle();
    const dir = join(rig.inbox, 'article');
    mkdirSync(dir, { recursive: true });
    const rows = [
      'Artikel;Bezeichnung;Menge;Einheit;AVP;Liste',
      'EX-1;Saugkompresse;2,675;Stück;12345678901234567890,99;1.005,50',
      'EX-2;Fixiervlies;1.000;m;1,00;1,00',
      'EX-3;Wundspüllösung;0x10;Flasche;1,00;1,00',
      'EX-4;Schlauch\u0000verband;1;Stück;1,00;1,00',
      'EX-5;Pflaster;12345678901234567890,99;Stück;1,00;1,00',
    ];
    writeFileSync(
      join(dir, 'artikel.csv'),
      iconv.encode(`${rows.join('\r\n')}\r\n`, 'windows-1252'),
    );
    writeFileSync(join(dir, 'artikel.csv.done'), '');
    await cycle().pass(['article']);
    const onPlatform = (customerNumber: string) =>
      sim.state.store
        .findBy('demo', 'article', 'customerNumber', customerNumber)
        .map((s) => s.record);
    expect(onPlatform('EX-1')).toEqual([
      expect.objectContaining({
        name: 'Saugkompresse',
        pharmacyPrice: '12345678901234567890.99',
        listPrice: '1005.50',
        packagingUnits: [expect.objectContaining({ quantity: 2.675, unit: 'Stück' })],
      }),
    ]);
    for (const refused of ['EX-2', 'EX-3', 'EX-4', 'EX-5']) expect(onPlatform(refused)).toEqual([]);
    const report = JSON.parse(
      readFileSync(join(rig.inbox, '.error', 'article', 'artikel.csv.error.json'), 'utf8'),
    ) as { problems: { line: number; column: string; message: string }[] };
    expect(report.problems.map((p) => [p.line, p.column])).toEqual([
      [3, 'Menge'],
      [4, 'Menge'],
      [5, 'Bezeichnung'],
      [6, 'Menge'],
    ]);
  });
});
