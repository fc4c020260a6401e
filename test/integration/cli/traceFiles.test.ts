import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { replayInboxMessage } from '../../../src/operations/replay.js';
import { traceKey, type TracedRecord } from '../../../src/cli/commands/trace.js';
import { fileLabel } from '../../../src/log/index.js';
import { germanErpFileSettings } from '../../support/docs/mappingExamples.js';
import { dropInto, germanExport } from '../../support/erp/erpDrops.js';
import { orderResponse } from '../../support/erp/openTransAnswers.js';
import { useAppCycle } from '../../support/appCycle.js';

const HEADER = 'Shop-Auftrag;Belegnummer;Status;Sendungsnummer;Tracking-Link';
const PULLED = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;

/**
 * `trace` by the files the ERP and the daemon exchange, in every format (issue 36, item 9): an
 * outbox batch file (CSV, the German ERP's layout), an inbox CSV export and each message in it
 * as `<file>#<row>`, an openTRANS answer; a message that was a repeat or overtaken shows too.
 * `inbox replay` of a file archived beside an earlier one of its name links its own messages.
 */
describe('trace by file: outbox batches, inbox exports and their messages', () => {
  const cycle = useAppCycle({ variant: 'B', file: germanErpFileSettings() });
  /** The timelines with the ERP's file names as they are (`--show-personal`). */
  const trace = (key: string): Promise<TracedRecord[]> =>
    traceKey({ config: cycle().rig.configPath }, key, 'shown');
  const masked = (key: string): Promise<TracedRecord[]> =>
    traceKey({ config: cycle().rig.configPath }, key);
  const whats = (records: readonly TracedRecord[]) =>
    records.flatMap((record) => record.events.map((event) => event.what));
  const dropIn = (folder: string, name: string, data: string | Buffer) =>
    dropInto(cycle().rig.inbox, folder, name, data);
  const dropExport = (name: string, rows: string[]) =>
    dropIn('orderStatus', name, germanExport(rows));

  /** The orders of the first outbox batch file, as the ERP reads them. */
  async function handedOver(): Promise<{ file: string; ids: string[] }> {
    const { rig } = cycle();
    await cycle().pass(PULLED);
    const [file] = rig.outboxFiles('singleOrder');
    if (file === undefined) throw new Error('no batch file was written');
    const text = iconv.decode(readFileSync(join(rig.outbox, 'singleOrder', file)), 'cp1252');
    const rows = parse<Record<string, string>>(text, { columns: true, delimiter: ';' });
    return { file, ids: [...new Set(rows.map((row) => row['Shop-Auftrag'] ?? ''))] };
  }

  it('finds the orders of an outbox batch file (csv)', async () => {
    const { file, ids } = await handedOver();
    expect(file).toMatch(/^singleOrder_\d{10}\.csv$/);
    expect(ids.length).toBeGreaterThan(1);
    const records = await trace(file);
    expect(records.map((record) => record.id).sort()).toEqual([...ids].sort());
    expect(records.every((record) => record.resource === 'singleOrder')).toBe(true);
  });

  it('finds the orders of an inbox CSV export, and one message of it as <file>#<row>', async () => {
    const { ids } = await handedOver();
    const [first, second] = ids as [string, string];
    dropExport('Rueckmeldung.csv', [
      HEADER,
      `${first};VK-1;Versendet;PK-1;`,
      `${second};VK-2;Uebermittelt;;`,
    ]);
    await cycle().pass(['singleOrder']);

    const both = await trace('Rueckmeldung.csv');
    expect(both.map((record) => record.id).sort()).toEqual([first, second].sort());
    expect(whats(both)).toEqual(
      expect.arrayContaining([
        'ERP orderStatus file Rueckmeldung.csv#2 received',
        'ERP orderStatus file Rueckmeldung.csv#3 received',
      ]),
    );
    expect((await trace('Rueckmeldung.csv#3')).map((record) => record.id)).toEqual([second]);
    // Masked, as by default, the file is its label and the row stays.
    const label = fileLabel('Rueckmeldung.csv');
    expect(whats(await masked('Rueckmeldung.csv'))).toContain(
      `ERP orderStatus file ${label}#2 received`,
    );
    expect((await masked(`${label}`)).map((record) => record.id).sort()).toEqual(
      [first, second].sort(),
    );
  });

  it('shows a message that repeated an earlier one, and one refused as overtaken', async () => {
    const { ids } = await handedOver();
    const [id] = ids as [string];
    dropExport('Rueckmeldung-1.csv', [HEADER, `${id};VK-1;Uebermittelt;;`]);
    await cycle().pass(['singleOrder']);
    dropExport('Export-1.csv', [HEADER, `${id};VK-1;Uebermittelt;;`]);
    await cycle().pass(['singleOrder']);
    dropExport('Rueckmeldung-2.csv', [HEADER, `${id};VK-1;Versendet;PK-1;`]);
    await cycle().pass(['singleOrder']);
    dropExport('Export-2.csv', [HEADER, `${id};VK-1;Uebermittelt;;`]);
    await cycle().pass(['singleOrder']);

    const [record] = await trace('Export-1.csv');
    expect(record?.id).toBe(id);
    const steps = whats(await trace(id));
    expect(steps).toEqual(
      expect.arrayContaining([
        'ERP orderStatus file Export-1.csv#2 received: the same as Rueckmeldung-1.csv#2, nothing queued',
        expect.stringMatching(
          /^ERP orderStatus file Export-2\.csv#2 refused: overtaken: the same was said before, and Rueckmeldung-2\.csv#2, handled .*, is newer; not written$/,
        ) as string,
      ]),
    );
    expect((await trace('Export-2.csv')).map((r) => r.id)).toEqual([id]);
    // Masked, the newer message that overtook it is named by its label too.
    expect(whats(await masked(id))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(
            `^ERP orderStatus file ${fileLabel('Export-2.csv')}#2 refused: overtaken: the same was said before, and ${fileLabel('Rueckmeldung-2.csv')}#2, handled `,
          ),
        ) as string,
      ]),
    );
  });

  it('finds the order of an openTRANS answer', async () => {
    const { ids } = await handedOver();
    const [id] = ids as [string];
    dropIn(
      'opentrans',
      'AB-7.xml',
      orderResponse({ orderId: id, salesId: 'VK-7', lines: [{ lineItemId: '1', quantity: 1 }] }),
    );
    await cycle().pass(['singleOrder']);
    const records = await trace('AB-7.xml');
    expect(records.map((record) => record.id)).toEqual([id]);
    expect(whats(records)).toContain(`ERP orderStatus file AB-7.xml#${id} received`);
  });

  it('inbox replay of a file archived beside an earlier one of its name links that file’s own messages', async () => {
    const { ids } = await handedOver();
    const [first, second] = ids as [string, string];
    dropExport('partial.csv', [
      HEADER,
      `${first};VK-1;Uebermittelt;;`,
      `${second};VK-2;Storniert;;`,
    ]);
    await cycle().pass(['singleOrder']);
    dropExport('partial.csv', [
      HEADER,
      `${first};VK-1;Uebermittelt;;`,
      `${second};VK-2;Uebermittelt;;`,
    ]);
    await cycle().pass(['singleOrder']);

    const { app, rig } = cycle();
    const outcome = await replayInboxMessage(app.store, app.config, 'partial.2.csv', {
      cwd: rig.folder,
      operator: { osUser: 'tester', host: 'test-host' },
    });
    if (!outcome.ok) throw new Error(outcome.refused);
    expect(outcome.replays.map((replay) => replay.first.name)).toEqual([
      'partial.2.csv#2',
      'partial.2.csv#3',
    ]);
    expect(outcome.replays.map((replay) => replay.name)).toEqual([
      expect.stringMatching(/^partial\.2\.csv#2:replay:/) as string,
      expect.stringMatching(/^partial\.2\.csv#3:replay:/) as string,
    ]);
  });
});
