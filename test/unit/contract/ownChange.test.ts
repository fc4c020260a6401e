import { describe, expect, it } from 'vitest';
import {
  carriesOthersChange,
  fingerprintOf,
  isOwnEcho,
  madeByTriedCreate,
  triedWriteOf,
} from '../../../src/contract/index.js';

const before = {
  _id: 'p-1',
  timestamp: '2026-03-01T07:00:00.000Z',
  updatedBy: 'platform-user',
  customerId: 'K-1',
  lastName: 'Alt',
  phone: '0221 1',
  careGivers: [{ _id: 'c-1', lastName: 'Sohn', timestamp: '2026-03-01T07:00:00.000Z' }],
};
const written = { customerId: 'K-1', lastName: 'Neu' };
const answer = {
  ...before,
  ...written,
  timestamp: '2026-03-01T08:00:00.000Z',
  updatedBy: 'erp-1',
  careGivers: [{ _id: 'c-1', lastName: 'Sohn', timestamp: '2026-03-01T08:00:00.000Z' }],
};
const write = fingerprintOf(written, answer, before);

// Spec document 1, rule 2: changes made through the API with our key "are left out of the next
// synchronisation result" — under any reading, the version a later pull brings back must be
// recognised as ours, and anything else must not.
describe('own-write recognition', () => {
  it('knows the version our write made, whatever its stamps', () => {
    expect(isOwnEcho(write, { ...answer, timestamp: '2026-03-01T08:00:00.500Z' })).toBe(true);
  });

  it('sees a later change of a field we wrote as a genuine change', () => {
    expect(isOwnEcho(write, { ...answer, lastName: 'Anders' })).toBe(false);
  });

  it('sees a change of another field, even one made before our write, as a genuine change', () => {
    expect(isOwnEcho(write, { ...answer, phone: '0221 2' })).toBe(false);
    const afterUserChange = fingerprintOf(written, { ...answer, phone: '0221 2' }, before);
    expect(isOwnEcho(afterUserChange, { ...answer, phone: '0221 2' })).toBe(false);
  });

  it('sees a version another editor made as a genuine change', () => {
    expect(isOwnEcho(write, { ...answer, updatedBy: 'platform-user' })).toBe(false);
  });

  it("tells a user's change inside our write's answer from ours and what the platform derived", () => {
    expect(carriesOthersChange(write, answer)).toBe(false);
    const withUserChange = { ...answer, phone: '0221 2' };
    expect(
      carriesOthersChange(fingerprintOf(written, withUserChange, before), withUserChange),
    ).toBe(true);
    // regionId taken from the patient on our write (spec document 2) is our write's effect.
    const derivedAnswer = { ...answer, regionId: 'r-9' };
    const derived = fingerprintOf(written, derivedAnswer, before, ['regionId']);
    expect(carriesOthersChange(derived, derivedAnswer)).toBe(false);
    expect(isOwnEcho(derived, derivedAnswer)).toBe(true);
    expect(isOwnEcho(derived, { ...derivedAnswer, regionId: 'r-1' })).toBe(false);
    expect(carriesOthersChange(fingerprintOf(written, derivedAnswer, before), derivedAnswer)).toBe(
      true,
    );
  });

  it('takes an empty value the platform fills in on our write for no change', () => {
    const withoutCareGivers: Record<string, unknown> = { ...before };
    delete withoutCareGivers.careGivers;
    const filled = { ...answer, careGivers: [] };
    const write = fingerprintOf(written, filled, withoutCareGivers);
    expect(carriesOthersChange(write, filled)).toBe(false);
    expect(isOwnEcho(write, filled)).toBe(true);
    // A value someone gave the field is a change.
    const given = { ...answer, careGivers: [{ _id: 'c-2', lastName: 'Tochter' }] };
    expect(carriesOthersChange(fingerprintOf(written, given, withoutCareGivers), given)).toBe(true);
  });

  it('knows nothing of records it never wrote', () => {
    expect(isOwnEcho(undefined, answer)).toBe(false);
  });

  it('takes a create as the platform answered it, and a short answer with what was sent', () => {
    const sent = { serialNumber: 'S-1', description: 'Pumpe' };
    const created = fingerprintOf(sent, { ...sent, _id: 'd-1', updated: '2026-03-01T08:00:00Z' });
    expect(isOwnEcho(created, { _id: 'd-1', serialNumber: 'S-1', description: 'Pumpe' })).toBe(
      true,
    );
    expect(isOwnEcho(created, { _id: 'd-1', serialNumber: 'S-1', description: 'neu' })).toBe(false);
  });
});

// The hashes are stored (own_writes) and compared with those of later pulls, possibly by a
// newer build: the canonical text they hash must never change. Pinned as the first
// implementation computed them, for the cases where JSON key order is subtle.
describe('own-write fingerprints stay the same across versions', () => {
  const stored = JSON.parse(
    '{"_id":"o-1","timestamp":"2026-03-01T07:00:00.000Z","status":0,"zeta":"z","Zeta":"Z","éclair":1,"10":"ten","2":"two","01":"lead","__proto__":{"x":1},"lines":[{"b":2,"a":1,"updatedAt":"s","sub":[null,{"y":1,"x":0}]}],"address":{"street":"S","city":"C","timestamp":"t"}}',
  ) as Record<string, unknown>;
  const answered: Record<string, unknown> = {
    ...stored,
    status: 1,
    timestamp: '2026-03-01T08:00:00.000Z',
    updatedBy: 'erp',
    lines: [{ a: 1, b: 2, updatedAt: 't', sub: [null, { x: 0, y: 1 }], gone: undefined }],
  };
  Object.defineProperty(answered, '__proto__', {
    value: { x: 1 },
    enumerable: true,
    configurable: true,
    writable: true,
  });

  it('hashes integer-like, upper-case, non-ASCII and __proto__ keys, nested stamps as before', () => {
    expect(fingerprintOf({ status: 1, note: 'n' }, answered, stored)).toEqual({
      fields: ['status', 'note'],
      writtenHash: '320e735ebfcb76e66cb35382a4cb8c1aa115079c7ec1652a5f76a13adc4ef2fa',
      baseFields: ['2', '10', 'zeta', 'Zeta', 'éclair', '01', '__proto__', 'lines', 'address'],
      baseHash: 'cdb67e121e0b57f9b335b5fbf37408e4da4ddba31573a3f66eb9c22dd61029fb',
      editor: 'erp',
    });
  });

  it('hashes a short answer with the value sent', () => {
    expect(fingerprintOf({ status: 1 }, { _id: 'o-1', updated: 'u' }, stored)).toEqual({
      fields: ['status'],
      writtenHash: '587fa9763e3d74ded3b64a843905f5541690582aad4976207e03743a7fb5f70e',
      baseFields: [],
      baseHash: '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
      editor: null,
    });
  });
});

// A write whose answer never came knows only what it sent; the platform's version of the record
// adds to the objects inside (an `_id` and `archived` on each packaging unit, `therapyIds: []`).
describe('a write whose answer never came', () => {
  const sent = {
    customerNumber: 'A-1',
    name: 'Handschuhe',
    'odd/key~': 1,
    packagingUnits: [{ unit: 'Stk', quantity: 100 }],
  };
  const made = {
    ...sent,
    _id: 'a-1',
    timestamp: '2026-03-01T08:00:00.000Z',
    updatedBy: 'erp-1',
    therapyIds: [],
    packagingUnits: [{ unit: 'Stk', quantity: 100, _id: 'pu-1', archived: false }],
  };
  const tried = triedWriteOf(sent);

  it('knows the record a create made by the values it sent, and takes it as ours from then on', () => {
    const write = madeByTriedCreate(tried, made);
    expect(write?.fields).toEqual(['customerNumber', 'name', 'odd/key~', 'packagingUnits']);
    expect(write?.editor).toBe('erp-1');
    expect(isOwnEcho(write, { ...made, timestamp: '2026-03-01T08:00:01.000Z' })).toBe(true);
  });

  it('sees another value, another key, or an entry more or less as not the record it made', () => {
    expect(madeByTriedCreate(tried, { ...made, name: 'Kittel' })).toBeUndefined();
    expect(madeByTriedCreate(tried, { ...made, 'odd/key~': 2 })).toBeUndefined();
    const twoUnits = [...made.packagingUnits, { unit: 'Pck', quantity: 10 }];
    expect(madeByTriedCreate(tried, { ...made, packagingUnits: twoUnits })).toBeUndefined();
    expect(madeByTriedCreate(tried, { ...made, packagingUnits: [] })).toBeUndefined();
    const otherUnit = [{ ...made.packagingUnits[0], quantity: 50 }];
    expect(madeByTriedCreate(tried, { ...made, packagingUnits: otherUnit })).toBeUndefined();
  });

  it("recognises a tried update's version by the leaves it sent, not a change besides", () => {
    const write = { ...fingerprintOf(sent, made, made), ...tried, editor: null };
    expect(isOwnEcho(write, made)).toBe(true);
    expect(isOwnEcho(write, { ...made, name: 'Kittel' })).toBe(false);
    expect(isOwnEcho(write, { ...made, manufacturer: 'Hartmann' })).toBe(false);
  });
});
