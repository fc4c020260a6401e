import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InboxMessage, OutboundRecord } from '../../../src/erp/adapter.js';

/** A fresh temp folder per test; `cleanup` removes it. */
export async function tempFolder(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'homecare-erp-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export function singleOrder(overrides: Record<string, unknown> = {}): OutboundRecord {
  const record: Record<string, unknown> = {
    _id: '6f1c2b9e-2d3a-4c55-9a1e-0f7d2b3c4d5e',
    timestamp: '2026-01-15T08:00:00.000Z',
    creationDate: '2026-01-14',
    patientId: 'a1b2c3d4-0000-4000-8000-000000000001',
    patientCustomerId: 'K-10042',
    salesId: null,
    status: 0,
    expressDelivery: true,
    deliveryAddress: {
      name: 'Erika Mustermann',
      address: 'Hauptstraße 5',
      postalCode: '50667',
      city: 'Köln',
    },
    orderedArticleLines: [
      {
        _id: 'line-1',
        articleId: 'art-1',
        articleCustomerNumber: '100-200',
        quantity: 2.5,
        unit: 'Stück',
        archived: false,
      },
      {
        _id: 'line-2',
        articleId: 'art-2',
        articleCustomerNumber: '100-300',
        quantity: 10,
        unit: 'Packung',
        archived: false,
      },
    ],
    ...overrides,
  };
  return {
    resource: 'singleOrder',
    id: String(record._id),
    version: String(record.timestamp),
    record,
  };
}

/** Stands in for the daemon's SQLite hand-off: remembers each message and answers repeats. */
export class AcceptRecorder {
  readonly messages: InboxMessage[] = [];
  private readonly seen = new Set<string>();
  failWith: Error | undefined;

  accept = (messages: readonly InboxMessage[]): Promise<('accepted' | 'repeat')[]> => {
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve(messages.map((message) => this.take(message)));
  };

  private take(message: InboxMessage): 'accepted' | 'repeat' {
    // Known as the store knows it: by kind, business key and content, not by name.
    const key = `${message.kind}\u0000${message.key}\u0000${message.sha256}`;
    if (this.seen.has(key)) return 'repeat';
    this.seen.add(key);
    this.messages.push(message);
    return 'accepted';
  }
}
