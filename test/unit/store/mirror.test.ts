import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findMirrorBy, getMirror, getMirrorField, upsertMirror } from '../../../src/store/index.js';
import type { MirrorKey, Store } from '../../../src/store/index.js';
import { tempStores } from '../../support/store/tempStore.js';
import type { TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
});
afterEach(() => temp.cleanup());

const patient = {
  _id: '3f8e2b1c-4d5a-4e6f-9a7b-8c9d0e1f2a3b',
  customerId: 'K-100234',
  lastName: 'Mustermann',
  timestamp: '2026-01-15T07:00:00.000Z',
};

describe('mirror', () => {
  it('reads one field of a record as JSON has it, without the rest (issue 10)', () => {
    const record = {
      ...patient,
      status: 0,
      archived: false,
      note: null,
      'care giver': { id: 'c-1' },
    };
    upsertMirror(store, 'patient', record, patient.timestamp);
    const field = (name: string) => getMirrorField(store, 'patient', patient._id, name);

    expect(field('status')).toEqual({ value: 0 });
    expect(field('archived')).toEqual({ value: false });
    expect(field('note')).toEqual({ value: null });
    expect(field('customerId')).toEqual({ value: 'K-100234' });
    expect(field('care giver')).toEqual({ value: { id: 'c-1' } });
    expect(field('missing')).toEqual({ value: undefined });
    expect(getMirrorField(store, 'patient', 'not-pulled', 'status')).toBeUndefined();
  });

  it('stores and returns the record', () => {
    expect(upsertMirror(store, 'patient', patient, patient.timestamp)).toBe(true);
    expect(getMirror(store, 'patient', patient._id)).toEqual({
      resource: 'patient',
      id: patient._id,
      version: patient.timestamp,
      record: patient,
      updatedAt: '2026-01-15T08:00:00.000Z',
    });
    expect(getMirror(store, 'doctor', patient._id)).toBeUndefined();
  });

  it('takes a newer or equal version and ignores an older one', () => {
    upsertMirror(store, 'patient', patient, '2026-01-15T07:00:00.000Z');
    const older = { ...patient, lastName: 'Alt' };
    expect(upsertMirror(store, 'patient', older, '2026-01-15T06:59:59.999Z')).toBe(false);
    expect(getMirror(store, 'patient', patient._id)?.record).toEqual(patient);
    // Later as text, earlier as a time (06:30 UTC): versions compare as date-times.
    expect(upsertMirror(store, 'patient', older, '2026-01-15T08:30:00+02:00')).toBe(false);
    expect(getMirror(store, 'patient', patient._id)?.record).toEqual(patient);

    // The same instant written without milliseconds is equal, not older.
    const same = { ...patient, lastName: 'Gleich' };
    expect(upsertMirror(store, 'patient', same, '2026-01-15T07:00:00Z')).toBe(true);
    const newer = { ...patient, lastName: 'Neu', customerId: 'K-100999' };
    expect(upsertMirror(store, 'patient', newer, '2026-01-15T08:00:00+00:30')).toBe(true);
    expect(getMirror(store, 'patient', patient._id)?.record).toEqual(newer);
    expect(findMirrorBy(store, 'patient', 'customerId', 'K-100234')).toEqual([]);
  });

  it.each<[string, MirrorKey, Record<string, unknown>]>([
    ['patient', 'customerId', { customerId: 'K-100234' }],
    ['article', 'customerNumber', { customerNumber: 'ART-4711' }],
    ['singleOrder', 'salesId', { salesId: 'AU-2026-000815' }],
    ['device', 'serialNumber', { serialNumber: 'SN-77-0042' }],
  ])('finds a %s by %s', (resource, field, keys) => {
    const record = { _id: `${resource}-1`, ...keys };
    const twin = { _id: `${resource}-2`, ...keys };
    upsertMirror(store, resource, { _id: `${resource}-0`, [field]: 'anderer Wert' }, 'v1');
    upsertMirror(store, resource, record, 'v1');
    temp.clock.advance(1000);
    upsertMirror(store, resource, twin, 'v1');
    upsertMirror(store, 'otherResource', record, 'v1');

    const value = keys[field] as string;
    expect(findMirrorBy(store, resource, field, value).map((e) => e.id)).toEqual([
      twin._id,
      record._id,
    ]);
    expect(findMirrorBy(store, resource, field, 'unbekannt')).toEqual([]);
  });
});
