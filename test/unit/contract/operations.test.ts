import { describe, expect, it } from 'vitest';
import { contractFor, type HttpMethod } from '../../../src/contract/index.js';
import type { Variant } from '../../../src/contract/index.js';

/**
 * The "Methods per variant" table of spec document 2, written out once by hand as the oracle.
 * GET covers list and get-by-id; the endpoint sections decide which of the two exist.
 */
const SPEC_TABLE: Record<string, Record<Variant, HttpMethod[]>> = {
  '/patient': { A: ['GET', 'POST', 'PUT'], B: ['GET', 'POST', 'PATCH'], C: ['GET', 'POST', 'PUT'] },
  '/patient/customerMapping': { A: [], B: [], C: ['GET'] },
  '/patientNote': {
    A: ['GET', 'POST', 'PATCH'],
    B: ['GET', 'POST', 'PATCH'],
    C: ['GET', 'POST', 'PATCH'],
  },
  '/patientHistory': { A: ['GET'], B: ['GET'], C: [] },
  '/singleOrder': { A: ['GET', 'PATCH'], B: ['GET', 'PATCH'], C: ['GET', 'PATCH'] },
  '/directOrder': { A: ['GET', 'PATCH'], B: ['GET', 'PATCH'], C: ['GET', 'PATCH'] },
  '/integratedCare': { A: ['GET', 'POST', 'PATCH'], B: ['GET', 'POST', 'PATCH'], C: ['GET'] },
  '/erpOrder': { A: ['POST', 'PUT'], B: ['GET', 'POST', 'PUT'], C: ['GET', 'POST', 'PUT'] },
  '/article': {
    A: ['GET', 'POST', 'PUT', 'PATCH'],
    B: ['GET', 'POST', 'PUT'],
    C: ['GET', 'POST', 'PUT'],
  },
  '/doctor': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/payer': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/region': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/users': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/hospital': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/nursingHome': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/nursingService': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/pharmacy': { A: ['GET'], B: ['GET'], C: ['GET'] },
  '/attachment': { A: ['GET'], B: ['GET', 'POST'], C: ['GET'] },
  '/device': { A: ['POST', 'PUT'], B: ['POST', 'PUT', 'GET'], C: ['POST', 'PUT'] },
  '/contractArticleGroup': { A: ['GET', 'POST', 'PUT'], B: [], C: [] },
  '/insuranceContract': { A: ['GET', 'POST', 'PUT'], B: [], C: [] },
  '/productGroup': { A: [], B: ['GET', 'POST', 'PATCH'], C: [] },
  '/document': { A: ['GET'], B: ['GET'], C: ['GET'] },
};

function methodsByPath(variant: Variant): Record<string, HttpMethod[]> {
  const table: Record<string, Set<HttpMethod>> = {};
  for (const operation of contractFor(variant).operations) {
    const path = operation.pathTemplate.replace(/\/\{id\}$/, '');
    if (path === '/postalCode') continue; // not in the spec's table: its path is not shown
    (table[path] ??= new Set()).add(operation.method);
  }
  return Object.fromEntries(Object.entries(table).map(([p, m]) => [p, [...m].sort()]));
}

describe('the operations table', () => {
  for (const variant of ['A', 'B', 'C'] as const) {
    it(`matches the spec's methods table in variant ${variant}`, () => {
      const expected = Object.fromEntries(
        Object.entries(SPEC_TABLE)
          .filter(([, byVariant]) => byVariant[variant].length > 0)
          .map(([path, byVariant]) => [path, [...byVariant[variant]].sort()]),
      );
      expect(methodsByPath(variant)).toEqual(expected);
    });
  }

  it('resolves open paths from config', () => {
    const contract = contractFor('C', { postalCode: '/plz', attachmentDownload: '/files/{id}' });
    expect(contract.find('postalCode', 'list')?.pathTemplate).toBe('/plz');
    expect(contract.find('postalCode', 'get')?.pathTemplate).toBe('/plz/{id}');
    expect(contract.find('attachment', 'download')?.pathTemplate).toBe('/files/{id}');
  });

  it('chooses PUT or PATCH for a patient update per variant', () => {
    expect(contractFor('A').find('patient', 'replace')?.method).toBe('PUT');
    expect(contractFor('B').find('patient', 'replace')).toBeUndefined();
    expect(contractFor('B').find('patient', 'update')?.method).toBe('PATCH');
    expect(contractFor('C').find('patient', 'replace')?.method).toBe('PUT');
  });

  it('names what a single-item path takes as id', () => {
    expect(contractFor('B').find('article', 'replace')?.detail.idKind).toBe('_idOrCustomerNumber');
    expect(contractFor('C').find('article', 'replace')?.detail.idKind).toBe('customerNumber');
    expect(contractFor('B').find('erpOrder', 'get')?.detail.idKind).toBe('salesId');
    expect(contractFor('A').find('article', 'get')?.detail.idKind).toBe('_idOrCustomerNumber');
  });

  it('says which variants offer an operation', () => {
    expect(contractFor('B').variantsOffering('article', 'update')).toEqual(['A']);
    expect(contractFor('C').variantsOffering('integratedCare', 'create')).toEqual(['A', 'B']);
  });
});
