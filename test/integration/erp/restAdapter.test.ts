import { describe, expect, it } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import { bodyOf, fakeErp, order, restAdapter } from '../../support/erp/restHarness.js';

describe('REST adapter: what the ERP receives', () => {
  it('POSTs each record to {baseUrl}/{resource} with its idempotency key, as JSON', async () => {
    const erp = await fakeErp();
    const adapter = restAdapter({ baseUrl: `${erp.url}/api/` });

    const outcomes = await adapter.deliver([order('o-1'), order('o-2')], 1);

    expect(outcomes).toEqual([{ status: 'delivered' }, { status: 'delivered' }]);
    expect(erp.requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/api/singleOrder'],
      ['POST', '/api/singleOrder'],
    ]);
    const first = erp.requests[0];
    expect(first?.headers['idempotency-key']).toBe('singleOrder:o-1:2026-01-15T07:00:00.000Z');
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.headers.authorization).toBeUndefined();
    expect(bodyOf(erp, 0)).toEqual(order('o-1').record);
  });

  it('sends binary companions as base64 entries beside the record', async () => {
    const erp = await fakeErp();
    const adapter = restAdapter({ baseUrl: erp.url });
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x00, 0xff]);
    const document: OutboundRecord = {
      resource: 'document',
      id: 'd-1',
      version: 'v1',
      record: { _id: 'd-1', title: 'Lieferschein' },
      files: [{ suffix: 'pdf', contentType: 'application/pdf', data: pdf }],
    };

    expect(await adapter.deliver([document], 1)).toEqual([{ status: 'delivered' }]);

    expect(bodyOf(erp, 0)).toEqual({
      _id: 'd-1',
      title: 'Lieferschein',
      files: [{ suffix: 'pdf', contentType: 'application/pdf', data: 'JVBERgD/' }],
    });
    expect(Buffer.from('JVBERgD/', 'base64')).toEqual(Buffer.from(pdf));
  });

  it.each([
    [{ type: 'bearer', token: 'tok-123' } as const, 'authorization', 'Bearer tok-123'],
    [
      { type: 'basic', username: 'sync', password: 'pa:ss' } as const,
      'authorization',
      `Basic ${Buffer.from('sync:pa:ss').toString('base64')}`,
    ],
    [{ type: 'header', header: 'X-Api-Key', value: 'key-9' } as const, 'x-api-key', 'key-9'],
  ])('sends %o as the %s header', async (auth, header, value) => {
    const erp = await fakeErp();
    const adapter = restAdapter({ baseUrl: erp.url, auth });

    expect(await adapter.deliver([order('o-1')], 1)).toEqual([{ status: 'delivered' }]);

    expect(erp.requests[0]?.headers[header]).toBe(value);
  });

  it('fills URL templates, relative and absolute, URL-encoding the values', async () => {
    const erp = await fakeErp();
    const other = await fakeErp();
    const adapter = restAdapter({
      baseUrl: `${erp.url}/erp`,
      resources: {
        singleOrder: { url: 'orders/{_id}/versions/{version}' },
        article: { url: `${other.url}/items/{resource}`, method: 'POST' },
        patient: { method: 'PUT' },
      },
    });
    const article: OutboundRecord = { resource: 'article', id: 'A 1', version: 'v1', record: {} };
    const patient: OutboundRecord = { resource: 'patient', id: 'p/7', version: 'v2', record: {} };

    const outcomes = await adapter.deliver([order('o?1', '2026-01-15T07:00:00+01:00')], 1);
    outcomes.push(...(await adapter.deliver([article], 2)));
    outcomes.push(...(await adapter.deliver([patient], 3)));

    expect(outcomes.every((outcome) => outcome.status === 'delivered')).toBe(true);
    expect(erp.requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', '/erp/orders/o%3F1/versions/2026-01-15T07%3A00%3A00%2B01%3A00'],
      ['PUT', '/erp/patient/p%2F7'],
    ]);
    expect(other.requests.map((r) => [r.method, r.url])).toEqual([['POST', '/items/article']]);
    expect(erp.requests[1]?.headers['idempotency-key']).toBe('patient:p/7:v2');
  });

  it('refuses to start with a broken configuration, before sending anything', async () => {
    const erp = await fakeErp();
    expect(() =>
      restAdapter({ baseUrl: erp.url, resources: { article: { url: '{sku}' } } }),
    ).toThrow(/erp\.rest\.resources\.article\.url: unknown placeholder \{sku\}/);
    expect(erp.requests).toHaveLength(0);
  });
});
