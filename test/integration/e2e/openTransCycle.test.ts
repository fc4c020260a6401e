import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '../../../src/contract/index.js';
import { useAppCycle } from '../../support/appCycle.js';
import { dispatchNotification } from '../../support/erp/openTransAnswers.js';

const LINK = 'https://tracking.example.com/track?id={shipmentId}';

/**
 * An order goes out as an openTRANS ORDER; the ERP's DISPATCHNOTIFICATION for it comes back
 * through `<inbox>/opentrans/` and the platform shows it sent, with the tracking link the
 * config's template makes. ORDER_ID is the order's `_id`, looked up among the pulled orders.
 */
describe('openTRANS both ways through the daemon', () => {
  const cycle = useAppCycle({
    variant: 'B',
    file: { format: 'xml', openTrans: true, openTransTrackingLink: LINK },
  });
  const pass = () => cycle().pass(['patient', 'article', 'integratedCare', 'singleOrder']);
  const dropAnswer = (name: string, text: string) => {
    const folder = join(cycle().rig.inbox, 'opentrans');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, name), text);
    writeFileSync(join(folder, `${name}.done`), '');
  };

  it('sets the order sent with its tracking, and sets aside an answer for an unknown order', async () => {
    const { sim, rig } = cycle();
    await pass();
    const [file] = rig.outboxFiles('singleOrder');
    if (file === undefined) throw new Error('no single order was written');
    const order = readFileSync(join(rig.outbox, 'singleOrder', file), 'utf8');
    const id = /<ORDER_ID>([^<]+)<\/ORDER_ID>/.exec(order)?.[1] ?? '';
    // Every line shipped whole: the mirror's order shows nothing left, so Sent, not PartiallySent.
    const lines = [...order.matchAll(/<ORDER_ITEM>[\s\S]*?<\/ORDER_ITEM>/g)].map(([item]) => ({
      orderId: '',
      lineItemId: /<LINE_ITEM_ID>([^<]+)</.exec(item)?.[1] ?? '',
      quantity: Number(/<QUANTITY>([^<]+)</.exec(item)?.[1]),
    }));
    expect(file.startsWith(id)).toBe(true);

    dropAnswer(
      'LS-1.xml',
      dispatchNotification({
        shipmentId: 'SH 1/7',
        lines: lines.map((line) => ({ ...line, orderId: id })),
      }),
    );
    dropAnswer(
      'LS-2.xml',
      dispatchNotification({
        shipmentId: 'SH-2',
        lines: [{ orderId: '00000000-0000-4000-8000-000000000000', lineItemId: 'x', quantity: 1 }],
      }),
    );
    await pass();
    await pass();

    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: ORDER_STATUS.Sent,
      trackingInfo: [
        {
          trackingCode: 'SH 1/7',
          trackingLink: 'https://tracking.example.com/track?id=SH%201%2F7',
        },
      ],
    });
    expect(existsSync(join(rig.inbox, '.error', 'opentrans', 'LS-2.xml.error.json'))).toBe(true);
    const report = readFileSync(
      join(rig.inbox, '.error', 'opentrans', 'LS-2.xml.error.json'),
      'utf8',
    );
    expect(report).toContain('names no single or direct order the daemon knows');
  });
});
