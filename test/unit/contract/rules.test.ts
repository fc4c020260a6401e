import { describe, expect, it } from 'vitest';
import {
  bodyProblems,
  contractFor,
  productGroupLevelProblem,
  VARIANTS,
} from '../../../src/contract/index.js';

describe('body rules', () => {
  const body = (
    variant: 'A' | 'B' | 'C',
    resource: 'device' | 'article' | 'erpOrder' | 'productGroup',
  ) => contractFor(variant).find(resource, 'create')?.detail.body;

  it('forbid _id on device create and name the field', () => {
    expect(
      bodyProblems(body('B', 'device'), {
        _id: 'x',
        patientId: 'p',
        serialNumber: 's',
        description: 'd',
      }),
    ).toEqual(['_id must not be supplied']);
  });

  // Spec document 1, Errors: `_id` supplied is "not allowed" on "Product group creation" and
  // "Device creation" only; elsewhere `_id` is "generated at creation" (document 2).
  it('forbid _id only on device and product group creates, the two the text names', () => {
    const refusing = VARIANTS.flatMap((variant) =>
      contractFor(variant)
        .operations.filter((operation) => operation.kind === 'create')
        .filter((operation) =>
          bodyProblems(operation.detail.body, { _id: 'x' }).includes('_id must not be supplied'),
        )
        .map((operation) => `${variant} ${operation.resource}`),
    );
    expect(refusing.sort()).toEqual(['A device', 'B device', 'B productGroup', 'C device']);
  });

  it('require at least one packaging unit on article create in B and C', () => {
    const article = { name: 'Kompresse', customerNumber: 'A-1', packagingUnits: [] };
    expect(bodyProblems(body('C', 'article'), article)).toEqual([
      'packagingUnits needs at least one entry',
    ]);
    expect(bodyProblems(body('A', 'article'), article)).toEqual(['articleNumber is required']);
  });

  it('require the ERP order fields', () => {
    expect(
      bodyProblems(body('C', 'erpOrder'), { salesId: 'S1', erpOrderedArticleLines: [] }),
    ).toEqual([
      'patientId is required',
      'outboundDate is required',
      'deliveryAddress is required',
      'erpOrderedArticleLines needs at least one entry',
    ]);
  });

  it('refuse an archived product group on create', () => {
    expect(bodyProblems(body('B', 'productGroup'), { name: 'n', type: 0, archived: true })).toEqual(
      ['archived must not be true'],
    );
  });

  it('refuse a body that is not an object', () => {
    expect(bodyProblems(undefined, [1])).toEqual(['the request body must be a JSON object']);
  });
});

describe('product group levels', () => {
  it('follow the hierarchy rules', () => {
    expect(productGroupLevelProblem(0, undefined)).toBeUndefined();
    expect(productGroupLevelProblem(0, 0)).toBe('a type 0 (OWG) group has no parent');
    expect(productGroupLevelProblem(1, 0)).toBeUndefined();
    expect(productGroupLevelProblem(1, 1)).toBe(
      'a type 1 (WG) group needs a parent of type 0 (OWG)',
    );
    expect(productGroupLevelProblem(2, 1)).toBeUndefined();
    expect(productGroupLevelProblem(2, 0)).toBeUndefined();
    expect(productGroupLevelProblem(2, 2)).toBe(
      'a type 2 (TWG) group may not have a parent of type 2',
    );
  });
});
