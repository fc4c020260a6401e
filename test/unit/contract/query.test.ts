import { describe, expect, it } from 'vitest';
import { contractFor, queryProblems } from '../../../src/contract/index.js';

const rule = (
  variant: 'A' | 'B' | 'C',
  resource: Parameters<ReturnType<typeof contractFor>['find']>[0],
  kind: 'list' | 'update' | 'create' | 'replace',
) => {
  const operation = contractFor(variant).find(resource, kind);
  if (!operation) throw new Error(`no ${resource} ${kind} in ${variant}`);
  return operation.detail.query;
};
const at = '2026-01-01T00:00:00.000Z';

describe('list parameter rules', () => {
  it('requires status and updatedAfter on order lists', () => {
    expect(queryProblems(rule('B', 'singleOrder', 'list'), {})).toEqual([
      'query parameter status is required',
      'query parameter updatedAfter is required',
    ]);
    expect(
      queryProblems(rule('B', 'singleOrder', 'list'), { status: 'created', updatedAfter: at }),
    ).toEqual([]);
  });

  it('refuses a status value the endpoint does not know', () => {
    expect(
      queryProblems(rule('A', 'integratedCare', 'list'), { status: 'updated', updatedAfter: at }),
    ).toEqual([
      'query parameter status must be one of created, transmitted, deactivated, archived, got "updated"',
    ]);
  });

  it('refuses extra parameters on directOrder and integratedCare lists only', () => {
    const query = { status: 'created', updatedAfter: at, patientId: 'x' };
    expect(queryProblems(rule('C', 'directOrder', 'list'), query)).toEqual([
      'query parameter patientId is not allowed here',
    ]);
    expect(queryProblems(rule('C', 'integratedCare', 'list'), query)).toHaveLength(1);
    expect(queryProblems(rule('C', 'singleOrder', 'list'), query)).toEqual([]);
  });

  it('demands exactly one of _id and updatedAfter on master data in B, at least one in C', () => {
    const both = { _id: '0b8f3f0e-3c1a-4d7e-9a55-2b7f6f3c9d10', updatedAfter: at };
    expect(queryProblems(rule('B', 'doctor', 'list'), both)).toEqual([
      'only one of the query parameters _id, updatedAfter may be given, got _id and updatedAfter',
    ]);
    expect(queryProblems(rule('C', 'doctor', 'list'), both)).toEqual([]);
    expect(queryProblems(rule('C', 'doctor', 'list'), {})).toEqual([
      'one of the query parameters _id, updatedAfter is required',
    ]);
  });

  it('demands neither _id nor updatedAfter on master data in A, nor on postal codes in A and C', () => {
    const masterData = ['doctor', 'payer', 'hospital', 'nursingHome', 'nursingService'] as const;
    for (const resource of masterData) {
      expect(queryProblems(rule('A', resource, 'list'), {}), resource).toEqual([]);
    }
    expect(queryProblems(rule('A', 'pharmacy', 'list'), { _id: 'x' })).toEqual([
      'query parameter _id must be a UUID, got "x"',
    ]);
    expect(queryProblems(rule('A', 'postalCode', 'list'), {})).toEqual([]);
    expect(queryProblems(rule('C', 'postalCode', 'list'), {})).toEqual([]);
    expect(queryProblems(rule('B', 'postalCode', 'list'), {})).toEqual([
      'one of the query parameters _id, updatedAfter, postalCode is required',
    ]);
  });

  it('requires status on article lists in B only', () => {
    expect(queryProblems(rule('B', 'article', 'list'), { updatedAfter: at })).toEqual([
      'query parameter status is required',
    ]);
    expect(queryProblems(rule('C', 'article', 'list'), { updatedAfter: at })).toEqual([]);
  });

  it('refuses any query parameter on PATCH /singleOrder and POST /article', () => {
    expect(queryProblems(rule('A', 'singleOrder', 'update'), { x: '1' })).toEqual([
      'query parameter x is not allowed here',
    ]);
    expect(queryProblems(rule('C', 'article', 'create'), { validate: 'true' })).toHaveLength(1);
    expect(queryProblems(rule('C', 'article', 'replace'), { a: 'b' })).toHaveLength(1);
  });

  it('checks value shapes', () => {
    expect(
      queryProblems(rule('B', 'singleOrder', 'list'), {
        status: 'created',
        updatedAfter: 'yesterday',
      }),
    ).toEqual(['query parameter updatedAfter must be an ISO 8601 date-time, got "yesterday"']);
    expect(queryProblems(rule('B', 'doctor', 'list'), { _id: 'not-a-uuid' })).toEqual([
      'query parameter _id must be a UUID, got "not-a-uuid"',
    ]);
  });

  it('ignores parameters given as undefined', () => {
    expect(
      queryProblems(rule('B', 'doctor', 'list'), { _id: undefined, updatedAfter: at }),
    ).toEqual([]);
  });
});
