import { describe, expect, it } from 'vitest';
import { changedFields } from '../../../src/contract/index.js';

const order = {
  _id: 'o-1',
  timestamp: '2026-03-01T08:00:00Z',
  updatedAt: '2026-03-01T08:00:00Z',
  updatedBy: 'u-1',
  status: 1,
  deliveryAddress: { name: 'Erika Mustermann', address: 'Hauptstr. 1', city: 'Köln' },
  orderedArticleLines: [{ _id: 'l-1', quantity: 2, timestamp: '2026-03-01T08:00:00Z' }],
  trackingInfo: [],
};

/** The order as a later version: the platform renews its stamps, `changes` on top. */
const later = (changes: Record<string, unknown>) => ({
  ...order,
  timestamp: '2026-03-02T09:00:00Z',
  updatedAt: '2026-03-02T09:00:00Z',
  updatedBy: 'u-2',
  ...changes,
});

describe('changedFields', () => {
  it('names changed fields, sorted, and a changed field inside a declared object by its path', () => {
    const after = later({
      status: 4,
      deliveryAddress: { ...order.deliveryAddress, address: 'Lindenallee 9' },
      trackingInfo: [{ trackingCode: 'T-1' }],
    });
    expect(changedFields('singleOrder', order, after)).toEqual([
      'deliveryAddress.address',
      'status',
      'trackingInfo',
    ]);
  });

  it('names no stamp, at the top or inside entries: a version that renewed only them names nothing', () => {
    const lines = [{ ...order.orderedArticleLines[0], timestamp: '2026-03-02T09:00:00Z' }];
    expect(changedFields('singleOrder', order, later({ orderedArticleLines: lines }))).toEqual([]);
  });

  it('names a list whole when an entry changed', () => {
    const lines = [{ ...order.orderedArticleLines[0], quantity: 3 }];
    expect(changedFields('singleOrder', order, later({ orderedArticleLines: lines }))).toEqual([
      'orderedArticleLines',
    ]);
  });

  it('takes key order for no change, as the canonical JSON does', () => {
    const reordered = JSON.parse(
      '{"trackingInfo":[],"deliveryAddress":{"city":"Köln","address":"Hauptstr. 1","name":"Erika Mustermann"},' +
        '"status":1,"orderedArticleLines":[{"timestamp":"2026-03-01T08:00:00Z","quantity":2,"_id":"l-1"}],"_id":"o-1"}',
    ) as Record<string, unknown>;
    expect(changedFields('singleOrder', order, reordered)).toEqual([]);
  });

  it('names fields added, removed, or set to null where they were absent', () => {
    const without: Record<string, unknown> = { ...order, deliveryDate: null };
    delete without['trackingInfo'];
    expect(changedFields('singleOrder', order, without)).toEqual(['deliveryDate', 'trackingInfo']);
  });

  it('names an object whole when it appears, goes, or gains a key the contract does not declare', () => {
    expect(changedFields('singleOrder', order, later({ deliveryAddress: null }))).toEqual([
      'deliveryAddress',
    ]);
    const extra = { ...order.deliveryAddress, street: 'Hauptstr.' };
    expect(changedFields('singleOrder', order, later({ deliveryAddress: extra }))).toEqual([
      'deliveryAddress',
    ]);
  });

  it('never names the keys of an object whose keys may be data', () => {
    const patient = { _id: 'p-1', additionalAttributes: { allergy: 'none' } };
    const after = { ...patient, additionalAttributes: { 'Erika Mustermann': 'penicillin' } };
    expect(changedFields('patient', patient, after)).toEqual(['additionalAttributes']);
  });
});
