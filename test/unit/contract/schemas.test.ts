import { describe, expect, it } from 'vitest';
import { checkRecord, entitySchema } from '../../../src/contract/index.js';

describe('entity schemas', () => {
  it('let unknown fields pass through', () => {
    const check = checkRecord('article', entitySchema('article'), {
      _id: 'a1',
      timestamp: '2026-01-01T00:00:00.000Z',
      name: 'Kompresse',
      futureField: { nested: true },
    });
    expect(check.ok && check.record['futureField']).toEqual({ nested: true });
  });

  it('take therapyId of a single order as number or string', () => {
    const order = { _id: 'o1', timestamp: '2026-01-01T00:00:00.000Z' };
    expect(
      checkRecord('singleOrder', entitySchema('singleOrder'), { ...order, therapyId: 3 }).ok,
    ).toBe(true);
    expect(
      checkRecord('singleOrder', entitySchema('singleOrder'), { ...order, therapyId: 'Stoma' }).ok,
    ).toBe(true);
    expect(
      checkRecord('singleOrder', entitySchema('singleOrder'), { ...order, therapyId: true }).ok,
    ).toBe(false);
  });

  it('name the field of a record that breaks the contract', () => {
    const check = checkRecord('patient', entitySchema('patient'), {
      _id: 'p1',
      timestamp: '2026-01-01T00:00:00.000Z',
      careDegree: 9,
    });
    expect(check).toMatchObject({ ok: false, id: 'p1' });
    expect(!check.ok && check.reason).toMatch(
      /^patient record does not match the contract: careDegree: /,
    );
  });

  it('type the outboundDate of an ERP order as an ISO 8601 date-time with its time zone', () => {
    const order = { _id: 'e1', timestamp: '2026-01-01T00:00:00.000Z' };
    const check = (outboundDate: string) =>
      checkRecord('erpOrder', entitySchema('erpOrder'), { ...order, outboundDate });
    expect(check('2026-03-01T10:00:00.000Z').ok).toBe(true);
    expect(check('2026-03-01T10:00+01:00').ok).toBe(true);
    for (const loose of ['2026-03-01', '2026-03-01T10:00:00', '2026-13-01T10:00:00Z', 'soon']) {
      const result = check(loose);
      expect(result.ok, loose).toBe(false);
      expect(!result.ok && result.reason, loose).toMatch(/outboundDate: /);
    }
  });

  it('refuse a record without id or version', () => {
    expect(checkRecord('doctor', entitySchema('doctor'), { timestamp: 't' })).toEqual({
      ok: false,
      id: undefined,
      reason: 'doctor record has no _id',
    });
    expect(checkRecord('doctor', entitySchema('doctor'), { _id: 'd1' })).toEqual({
      ok: false,
      id: 'd1',
      reason: 'doctor record d1 has none of timestamp, updatedAt',
    });
  });

  it('identify records of lists without _id and timestamp', () => {
    const history = {
      entity: 'integratedCare',
      entityId: 'ic1',
      createdAt: '2026-01-02T00:00:00Z',
      status: 'created',
    };
    expect(checkRecord('patientHistory', entitySchema('patientHistory'), history)).toMatchObject({
      ok: true,
      id: 'integratedCare/ic1/2026-01-02T00:00:00Z/created',
      version: '2026-01-02T00:00:00Z',
    });
    const attachment = {
      _id: 'att-9',
      uploadDate: '2026-01-03T00:00:00Z',
      metadata: { patientId: 'p' },
    };
    expect(checkRecord('attachment', entitySchema('attachment'), attachment)).toMatchObject({
      ok: true,
      version: '2026-01-03T00:00:00Z',
    });
  });
});

describe('optional fields of unknown shape', () => {
  it('may be absent', () => {
    const base = { _id: 'x', timestamp: '2026-01-01T00:00:00.000Z' };
    expect(checkRecord('integratedCare', entitySchema('integratedCare'), base).ok).toBe(true);
    const line = { _id: 'l1', articleId: 'a1' };
    expect(
      checkRecord('singleOrder', entitySchema('singleOrder'), {
        ...base,
        orderedArticleLines: [line],
      }).ok,
    ).toBe(true);
    const attribute = { name: 'Größe' };
    expect(
      checkRecord('article', entitySchema('article'), { ...base, attributes: [attribute] }).ok,
    ).toBe(true);
  });
});
