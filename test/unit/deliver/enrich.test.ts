import { describe, expect, it } from 'vitest';
import type { ResourceName } from '../../../src/contract/index.js';
import { enrich, type MirrorLookup } from '../../../src/deliver/enrich.js';

const mirror: Record<string, Record<string, unknown>> = {
  'patient/p1': {
    _id: 'p1',
    customerId: 'K-1001',
    firstName: 'Erika',
    lastName: 'Mustermann',
    city: 'Köln',
    birthday: '1950-01-01',
  },
  'article/a1': { _id: 'a1', customerNumber: 'A-100001', name: 'Saugkompresse 10x10' },
  'article/a2': { _id: 'a2', customerNumber: 'A-100002', name: 'Fixierpflaster' },
  'integratedCare/ic1': { _id: 'ic1', salesId: 'V-77', patientId: 'p1' },
};
const lookup: MirrorLookup = (resource: ResourceName, id: string) => mirror[`${resource}/${id}`];

const order = {
  _id: 'o1',
  patientId: 'p1',
  integratedCareId: 'ic1',
  orderedArticleLines: [
    { _id: 'l1', articleId: 'a1', quantity: 2 },
    { _id: 'l2', articleId: 'a2', quantity: 1 },
  ],
};

describe('enrichment', () => {
  it('adds the patient customerId and address, article numbers and the care salesId to a single order', () => {
    const result = enrich('singleOrder', order, lookup);
    expect(result).toEqual({
      ok: true,
      record: {
        ...order,
        patientCustomerId: 'K-1001',
        patient: { customerId: 'K-1001', firstName: 'Erika', lastName: 'Mustermann', city: 'Köln' },
        orderedArticleLines: [
          {
            _id: 'l1',
            articleId: 'a1',
            quantity: 2,
            articleCustomerNumber: 'A-100001',
            articleName: 'Saugkompresse 10x10',
          },
          {
            _id: 'l2',
            articleId: 'a2',
            quantity: 1,
            articleCustomerNumber: 'A-100002',
            articleName: 'Fixierpflaster',
          },
        ],
        integratedCareSalesId: 'V-77',
      },
    });
  });

  it('keeps the article number the platform sent on a line', () => {
    const sent = {
      ...order,
      orderedArticleLines: [{ _id: 'l1', articleId: 'a1', articleCustomerNumber: 'OLD-1' }],
    };
    const result = enrich('directOrder', sent, lookup);
    expect(result.ok && result.record['orderedArticleLines']).toEqual([
      {
        _id: 'l1',
        articleId: 'a1',
        articleCustomerNumber: 'OLD-1',
        articleName: 'Saugkompresse 10x10',
      },
    ]);
  });

  it('enriches integrated care from its proposed article lines', () => {
    const care = {
      _id: 'ic1',
      patientId: 'p1',
      proposedArticleLines: [{ _id: 'pl1', articleId: 'a2' }],
    };
    const result = enrich('integratedCare', care, lookup);
    expect(result.ok && result.record).toMatchObject({
      patientCustomerId: 'K-1001',
      proposedArticleLines: [
        {
          _id: 'pl1',
          articleId: 'a2',
          articleCustomerNumber: 'A-100002',
          articleName: 'Fixierpflaster',
        },
      ],
    });
  });

  it('names every missing reference instead of going out half-resolved', () => {
    const result = enrich(
      'directOrder',
      {
        _id: 'd1',
        patientId: 'p9',
        orderedArticleLines: [{ articleId: 'a1' }, { articleId: 'a9' }, { articleId: 'a9' }],
      },
      lookup,
    );
    expect(result).toEqual({
      ok: false,
      missing: [
        { resource: 'patient', id: 'p9' },
        { resource: 'article', id: 'a9' },
      ],
    });
  });

  it('passes other resources unchanged', () => {
    const doctor = { _id: 'd', lastName: 'Weber' };
    expect(enrich('doctor', doctor, lookup)).toEqual({ ok: true, record: doctor });
  });
});
