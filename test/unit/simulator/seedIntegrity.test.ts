import { describe, expect, it } from 'vitest';
import { ORDER_STATUS, productGroupLevelProblem, VARIANTS } from '../../../src/contract/index.js';
import { isValidPzn } from '../../../src/simulator/seed/numbers.js';
import {
  idsOf,
  recordsOf,
  seedOf,
  valuesAt,
  type SeedByResource,
} from '../../support/simulator/seedFixtures.js';

/** [resource, path to a reference, the resource it must name]. */
const REFERENCES: ReadonlyArray<readonly [string, string, string]> = [
  ['region', 'parent', 'region'],
  ['patient', 'regionId', 'region'],
  ['patient', 'fieldNurseId', 'users'],
  ['patient', 'postalCodeId', 'postalCode'],
  ['patient', 'payer.payerId', 'payer'],
  ['patient', 'primaryDoctorId', 'doctor'],
  ['patient', 'nursingHomeId', 'nursingHome'],
  ['patient', 'nursingServiceId', 'nursingService'],
  ['patient', 'pharmacyId', 'pharmacy'],
  ['patient', 'deliveryAddress.postalCodeId', 'postalCode'],
  ['users', 'postalCodeId', 'postalCode'],
  ['patientNote', 'patientId', 'patient'],
  ['patientNote', 'regionId', 'region'],
  ['patientHistory', 'entityId', 'patient'],
  ['device', 'patientId', 'patient'],
  ['device', 'articleId', 'article'],
  ['article', 'productGroupId', 'productGroup'],
  ['productGroup', 'parentId', 'productGroup'],
  ['contractArticleGroup', 'articleIds.*', 'article'],
  ['insuranceContract', 'payerIds.*', 'payer'],
  ['insuranceContract', 'contractArticleGroupIds.*', 'contractArticleGroup'],
  ['integratedCare', 'patientId', 'patient'],
  ['integratedCare', 'regionId', 'region'],
  ['integratedCare', 'doctorId', 'doctor'],
  ['integratedCare', 'proposedArticleLines.*.articleId', 'article'],
  ['singleOrder', 'integratedCareId', 'integratedCare'],
  ['singleOrder', 'patientId', 'patient'],
  ['singleOrder', 'regionId', 'region'],
  ['singleOrder', 'orderedArticleLines.*.articleId', 'article'],
  ['directOrder', 'patientId', 'patient'],
  ['directOrder', 'regionId', 'region'],
  ['directOrder', 'orderedArticleLines.*.articleId', 'article'],
  ['erpOrder', 'patientId', 'patient'],
  ['erpOrder', 'regionId', 'region'],
  ['erpOrder', 'erpOrderedArticleLines.*.articleId', 'article'],
  ['erpOrder', 'erpOrderedArticleLines.*.integratedCareId', 'integratedCare'],
  ['document', 'patientId', 'patient'],
  ['attachment', 'metadata.patientId', 'patient'],
];

const EDITORS = ['createdBy', 'updatedBy', 'metadata.createdBy', 'metadata.updatedBy'];

function brokenReferences(seed: SeedByResource): string[] {
  const broken: string[] = [];
  for (const [resource, path, target] of REFERENCES) {
    const ids = idsOf(seed, target);
    for (const record of recordsOf(seed, resource)) {
      for (const value of valuesAt(record, path)) {
        if (!ids.has(value)) broken.push(`${resource} ${String(record._id)} ${path} → ${target}`);
      }
    }
  }
  const users = idsOf(seed, 'users');
  for (const [resource, records] of seed) {
    for (const record of records) {
      for (const value of EDITORS.flatMap((path) => valuesAt(record, path))) {
        if (!users.has(value))
          broken.push(`${resource} ${String(record._id)} editor ${String(value)}`);
      }
    }
  }
  return broken;
}

function duplicates(values: unknown[]): unknown[] {
  return values.filter((value, i) => values.indexOf(value) !== i);
}

const byId = (records: Array<Record<string, unknown>>) => new Map(records.map((r) => [r._id, r]));

describe('seed: referential integrity', () => {
  it('every reference names a generated record, in every variant and for bigger sizes', () => {
    for (const variant of VARIANTS) {
      const seed = seedOf(variant, 11);
      expect(brokenReferences(seed)).toEqual([]);
      expect(recordsOf(seed, 'singleOrder').length).toBeGreaterThan(0);
    }
    const big = seedOf('B', 12, { articles: 300, patients: 120, singleOrders: 200, erpOrders: 60 });
    expect(brokenReferences(big)).toEqual([]);
  });

  it('the check can fail: a dangling reference is reported', () => {
    const seed = seedOf('B', 11);
    const order = recordsOf(seed, 'singleOrder')[0];
    if (order) order.integratedCareId = 'not-a-care-arrangement';
    expect(brokenReferences(seed)).toHaveLength(1);
  });

  it('copies what it references consistently', () => {
    const seed = seedOf('A', 13, { patients: 30, integratedCares: 40, singleOrders: 60 });
    const articles = byId(recordsOf(seed, 'article'));
    const patients = byId(recordsOf(seed, 'patient'));
    const cares = byId(recordsOf(seed, 'integratedCare'));
    const payerIks = new Map(recordsOf(seed, 'payer').map((p) => [p._id, p.ikNumber]));
    for (const patient of patients.values()) {
      expect(patient.payerInstitutionCode).toBe(
        payerIks.get(valuesAt(patient, 'payer.payerId')[0]),
      );
    }
    for (const order of recordsOf(seed, 'singleOrder')) {
      const care = cares.get(order.integratedCareId);
      expect(order.patientId).toBe(care?.patientId);
      expect(order.regionId).toBe(patients.get(order.patientId)?.regionId);
      for (const line of valuesAt(order, 'orderedArticleLines.*') as Array<
        Record<string, unknown>
      >) {
        const article = articles.get(line.articleId);
        expect(line.articleCustomerNumber).toBe(article?.customerNumber);
        expect(valuesAt(article, 'packagingUnits.*._id')).toContain(line.packagingUnitId);
      }
    }
    for (const care of cares.values()) {
      expect(care.regionId).toBe(patients.get(care.patientId)?.regionId);
      for (const line of valuesAt(care, 'proposedArticleLines.*') as Array<
        Record<string, unknown>
      >) {
        const article = articles.get(line.articleId);
        expect(line.articleCustomerNumber).toBe(article?.customerNumber);
        expect(valuesAt(article, 'packagingUnits.*._id')).toContain(
          valuesAt(line, 'dosage.packagingId')[0],
        );
      }
    }
  });
});

describe('seed: keys the ERP relies on', () => {
  const seed = seedOf('B', 21, {
    articles: 2000,
    patients: 600,
    singleOrders: 400,
    directOrders: 200,
    erpOrders: 150,
  });

  it('customerNumber, customerId and salesId never repeat', () => {
    expect(duplicates(recordsOf(seed, 'article').map((a) => a.customerNumber))).toEqual([]);
    const customerIds = recordsOf(seed, 'patient').flatMap((p) => valuesAt(p, 'customerId'));
    expect(duplicates(customerIds)).toEqual([]);
    expect(customerIds.length).toBeLessThan(recordsOf(seed, 'patient').length);
    const orderSalesIds = ['singleOrder', 'directOrder'].flatMap((r) =>
      recordsOf(seed, r).flatMap((o) => valuesAt(o, 'salesId')),
    );
    expect(orderSalesIds.length).toBeGreaterThan(100);
    expect(duplicates(orderSalesIds)).toEqual([]);
    expect(duplicates(recordsOf(seed, 'erpOrder').map((o) => o.salesId))).toEqual([]);
    expect(
      duplicates(recordsOf(seed, 'integratedCare').flatMap((c) => valuesAt(c, 'salesId'))),
    ).toEqual([]);
    expect(duplicates(recordsOf(seed, 'payer').map((p) => p.ikNumber))).toEqual([]);
  });

  it('ERP orders report first on the platform orders that carry a salesId', () => {
    const orderSalesIds = new Set(
      recordsOf(seed, 'singleOrder').flatMap((o) => valuesAt(o, 'salesId')),
    );
    const first = recordsOf(seed, 'erpOrder')[0];
    expect(orderSalesIds.has(first?.salesId)).toBe(true);
  });

  it('every PZN has a valid check digit, and the numbers have their German shapes', () => {
    for (const article of recordsOf(seed, 'article')) {
      for (const pzn of [article.pcn, ...valuesAt(article, 'packagingUnits.*.pcn')]) {
        expect(isValidPzn(String(pzn)), String(pzn)).toBe(true);
      }
      expect(String(article.customerNumber)).toMatch(/^A-\d{6}$/);
      expect(String(article.ean)).toMatch(/^\d{13}$/);
    }
    for (const payer of recordsOf(seed, 'payer'))
      expect(String(payer.ikNumber)).toMatch(/^10\d{7}$/);
    for (const doctor of recordsOf(seed, 'doctor')) {
      expect(String(doctor.lifelongNumber)).toMatch(/^\d{9}$/);
      expect(String(doctor.siteNumber)).toMatch(/^\d{9}$/);
    }
    for (const patient of recordsOf(seed, 'patient')) {
      expect(String(patient.postalCode)).toMatch(/^\d{5}$/);
      expect(valuesAt(patient, 'payer.numberOfInsured')[0]).toMatch(/^[A-Z]\d{9}$/);
    }
  });
});

describe('seed: product groups (B)', () => {
  it('form a valid hierarchy with all three levels', () => {
    for (const size of [1, 9, 40]) {
      const groups = recordsOf(seedOf('B', 31, { productGroups: size }), 'productGroup');
      const types = byId(groups);
      for (const group of groups) {
        const parentType =
          group.parentId === undefined ? undefined : types.get(group.parentId)?.type;
        expect(
          productGroupLevelProblem(Number(group.type), parentType as number | undefined),
        ).toBeUndefined();
      }
      if (size >= 9) expect(new Set(groups.map((g) => g.type))).toEqual(new Set([0, 1, 2]));
    }
  });
});

describe('seed: statuses the filters use', () => {
  const { Created, Transmitted, Processed, Sent } = ORDER_STATUS;

  it('orders cover created, transmitted, processed, sent and archived, with fitting fields', () => {
    for (const resource of ['singleOrder', 'directOrder']) {
      const orders = recordsOf(seedOf('C', 41), resource);
      const live = orders.filter((o) => o.archived === false);
      for (const status of [Created, Transmitted, Processed, Sent]) {
        expect(
          live.some((o) => o.status === status),
          `${resource} ${status}`,
        ).toBe(true);
      }
      expect(orders.some((o) => o.archived === true)).toBe(true);
      for (const order of orders) {
        const early = order.status === Created || order.status === Transmitted;
        expect('salesId' in order).toBe(!early && Number(order.status) >= Processed);
        if (order.status === Sent)
          expect(valuesAt(order, 'trackingInfo.*.trackingCode')).toHaveLength(1);
      }
    }
  });

  it('care arrangements cover new, transmitted, ended and archived ones', () => {
    const cares = recordsOf(seedOf('A', 42), 'integratedCare');
    expect(cares.some((c) => c.seriesStatus === 0 && c.status === 1)).toBe(true);
    expect(cares.some((c) => c.seriesStatus === 1 && c.status === 1)).toBe(true);
    expect(cares.some((c) => c.status === 2)).toBe(true);
    expect(cares.some((c) => c.archived === true)).toBe(true);
  });

  it('single orders sometimes carry the therapy by name', () => {
    const orders = recordsOf(seedOf('B', 43), 'singleOrder');
    expect(orders.some((o) => typeof o.therapyId === 'string')).toBe(true);
    expect(orders.some((o) => typeof o.therapyId === 'number')).toBe(true);
  });
});
