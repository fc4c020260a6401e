import { describe, expect, it } from 'vitest';
import { fingerprintOf, isOwnEcho } from '../../src/sync/ownEcho.js';

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
