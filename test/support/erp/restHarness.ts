import { afterEach } from 'vitest';
import type { OutboundRecord } from '../../../src/erp/adapter.js';
import type { ErpAdapter } from '../../../src/erp/adapter.js';
import {
  createRestAdapter,
  type RestAdapterOptions,
} from '../../../src/erp/outbound/rest/index.js';
import type { Logger } from '../../../src/log/index.js';
import { FakeClock } from '../fakeClock.js';
import { startFakeErp, type FakeErp } from '../fakeErp.js';

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function fakeErp(): Promise<FakeErp> {
  const erp = await startFakeErp();
  cleanups.push(() => erp.close());
  return erp;
}

export function restAdapter(
  options: RestAdapterOptions,
  extra: { clock?: FakeClock; logger?: Logger } = {},
): ErpAdapter {
  const adapter = createRestAdapter(options, {
    clock: extra.clock ?? new FakeClock(),
    ...(extra.logger === undefined ? {} : { logger: extra.logger }),
  });
  cleanups.push(() => adapter.close());
  return adapter;
}

export function order(id: string, version = '2026-01-15T07:00:00.000Z'): OutboundRecord {
  return {
    resource: 'singleOrder',
    id,
    version,
    record: { _id: id, timestamp: version, status: 0, patientCustomerId: 'K-1001' },
  };
}

export function bodyOf(erp: FakeErp, index: number): unknown {
  const seen = erp.requests[index];
  if (seen === undefined) throw new Error(`the ERP saw no request #${index}`);
  return JSON.parse(seen.body);
}
