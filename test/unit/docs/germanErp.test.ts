import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileInboxOptions } from '../../../src/pushback/intake.js';
import { createInbox } from '../../../src/erp/inbound/index.js';
import { type KnownOrder } from '../../../src/erp/messages/index.js';
import { AcceptRecorder } from '../../support/erp/fileDropSupport.js';
import { FakeClock } from '../../support/fakeClock.js';
import { KINDS } from '../../support/inboxKinds.js';
import { exampleOrder, secondExampleOrder } from '../../support/docs/exampleOrders.js';
import { filesBelow } from '../../support/docs/outboxExamples.js';
import {
  GERMAN_ERP_DELIVERIES,
  GERMAN_ERP_STATUS,
  germanErpConfig,
  MAPPING_EXAMPLES,
  writeGermanErpOutbox,
} from '../../support/docs/mappingExamples.js';

const REGENERATE = 'run `npx tsx test/support/docs/makeExamples.ts`';

/**
 * docs/examples/mapping: a German ERP's CSV layout both ways. The config is valid (as `config
 * check` finds it), the order file is what the daemon writes with it, and the ERP's status
 * export imports.
 */
describe('docs example: a German ERP’s CSV layout (docs/examples/mapping)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'homecare-german-erp-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('outbox: the example file is what the daemon writes with the example config', async () => {
    const config = germanErpConfig(dir, KINDS);
    await writeGermanErpOutbox(config, join(dir, 'written'));
    const written = await filesBelow(join(dir, 'written'));
    const documented = await filesBelow(join(MAPPING_EXAMPLES, 'outbox'));
    expect([...documented.keys()], REGENERATE).toEqual([...written.keys()]);
    for (const [path, bytes] of written) {
      expect(documented.get(path)?.equals(bytes), `${path}; ${REGENERATE}`).toBe(true);
    }
    const text = new TextDecoder('windows-1252').decode(
      written.get('singleOrder/singleOrder_0000000057.csv'),
    );
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header).toBe(
      'Auftragsart;Shop-Auftrag;Kundennummer;Name;Strasse;PLZ;Ort;Lieferdatum;Eingang;Express;Hinweis;Status;Artikelnummer;Bezeichnung;Menge;Einheit',
    );
    // Three lines of the first order, one of the second; the 2.5 m as the ERP writes it.
    expect(rows).toHaveLength(4);
    expect(rows[1]).toContain(';04.03.2026;02.03.2026 08:44;N;');
    expect(rows[1]).toMatch(/;Neu;100-3150;Fixiervlies 10 cm, Meterware;2,50;M$/);
    expect(rows[3]).toMatch(/;J;;Neu;100-2001;.*;5,00;PAK$/);
  });

  it('inbox: the example status export imports, each row as an order status', async () => {
    const config = germanErpConfig(dir, KINDS);
    const orders = new Map<string, KnownOrder>(
      [exampleOrder(), secondExampleOrder()].map((order) => [
        order.id,
        { orderType: 'single', record: order.record },
      ]),
    );
    const recorder = new AcceptRecorder();
    const inbox = createInbox(
      { ...fileInboxOptions(config), minFileAgeMs: 0 },
      {
        clock: new FakeClock('2026-03-03T15:00:00.000Z'),
        kinds: KINDS,
        accept: recorder.accept,
        openTransOrder: (id) => orders.get(id),
      },
    );
    await mkdir(join(config.erp.file.inbox, 'orderStatus'), { recursive: true });
    await copyFile(
      GERMAN_ERP_STATUS,
      join(config.erp.file.inbox, 'orderStatus', 'Rueckmeldung_2026-03-03.csv'),
    );
    await inbox.scanOnce();
    const report = await inbox.scanOnce();
    expect(report.files).toEqual([expect.objectContaining({ status: 'accepted', accepted: 2 })]);
    expect(recorder.messages.map((m) => [m.kind, m.name, m.body])).toEqual([
      [
        'orderStatus',
        'Rueckmeldung_2026-03-03.csv#2',
        {
          orderType: 'single',
          id: '3f6c2a1e-8b4d-4e7a-9c15-2d7e0b9a4f61',
          salesId: 'VK-2026-004711',
          status: 4,
          trackingInfo: [
            {
              trackingCode: '00340434161094042557',
              trackingLink: 'https://tracking.example.com/?nr=00340434161094042557',
            },
          ],
        },
      ],
      [
        'orderStatus',
        'Rueckmeldung_2026-03-03.csv#3',
        {
          orderType: 'single',
          id: '9a0e4c7b-1f3d-4b26-8e59-6c1d2a7f3b08',
          salesId: 'VK-2026-004712',
          status: 1,
        },
      ],
    ]);
    expect((await readFile(GERMAN_ERP_STATUS)).includes(Buffer.from('Übergabe', 'latin1'))).toBe(
      true,
    );
  });

  it('inbox: the example delivery export imports as one ERP order, both lines and parcels', async () => {
    const config = germanErpConfig(dir, KINDS);
    const recorder = new AcceptRecorder();
    const inbox = createInbox(
      { ...fileInboxOptions(config), minFileAgeMs: 0 },
      { clock: new FakeClock('2026-03-03T15:00:00.000Z'), kinds: KINDS, accept: recorder.accept },
    );
    await mkdir(join(config.erp.file.inbox, 'erpOrder'), { recursive: true });
    await copyFile(
      GERMAN_ERP_DELIVERIES,
      join(config.erp.file.inbox, 'erpOrder', 'Lieferungen_2026-03-03.csv'),
    );
    await inbox.scanOnce();
    const report = await inbox.scanOnce();
    expect(report.files).toEqual([expect.objectContaining({ status: 'accepted', accepted: 1 })]);
    expect(recorder.messages.map((m) => [m.kind, m.name, m.key, m.body])).toEqual([
      [
        'erpOrder',
        'Lieferungen_2026-03-03.csv#2,3',
        'erpOrder:LS-2026-000815',
        {
          salesId: 'LS-2026-000815',
          patientCustomerId: 'K-10042',
          outboundDate: '2026-03-03T13:30:00.000Z',
          deliveryAddress: {
            name: 'Erika Mustermann',
            address: 'Hauptstraße 5',
            postalCode: '50667',
            city: 'Köln',
          },
          erpOrderedArticleLines: [
            {
              articleDescription: 'Saugkompresse steril 10 x 10 cm',
              quantity: 2,
              deliveredQuantity: 2,
            },
            {
              articleDescription: 'Fixiervlies 10 cm, Meterware',
              quantity: 1,
              deliveredQuantity: 1,
            },
          ],
          trackingInfo: [
            { trackingCode: '00340434161094042557' },
            { trackingCode: '00340434161094042564' },
          ],
          therapyId: 3,
          completed: true,
          annotation: 'Lieferung',
          prescriptionStatus: 'originalReceived',
          trackingLink: 'https://tracking.example.com/',
        },
      ],
    ]);
  });
});
