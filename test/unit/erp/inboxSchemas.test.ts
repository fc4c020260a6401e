import { describe, expect, it } from 'vitest';
import { parseInboxBody } from '../../support/inboxKinds.js';

const problemsOf = (result: ReturnType<typeof parseInboxBody>) =>
  result.ok ? [] : result.problems;

describe('inbox schemas: orderStatus', () => {
  it('takes a status change for an order found by id, with a salesId to write', () => {
    const body = { orderType: 'single', id: 'o-1', salesId: 'S-1', status: 3 };
    expect(parseInboxBody('orderStatus', body)).toEqual({ ok: true, body });
  });

  it('takes an order found by salesId alone', () => {
    const body = { orderType: 'direct', salesId: 'S-1', trackingInfo: [{ trackingCode: 'Z1' }] };
    expect(parseInboxBody('orderStatus', body).ok).toBe(true);
  });

  it('refuses a message that finds no order, changes nothing, or names no status', () => {
    expect(problemsOf(parseInboxBody('orderStatus', { orderType: 'single', status: 3 }))).toEqual([
      'id: id or salesId is required to find the order',
    ]);
    expect(
      problemsOf(parseInboxBody('orderStatus', { orderType: 'single', salesId: 'S' })),
    ).toEqual([
      'nothing to change: give status, erpOrderNumber, trackingInfo or, with id, salesId',
    ]);
    const bad = { orderType: 'group', id: 'o', status: 11 };
    expect(problemsOf(parseInboxBody('orderStatus', bad))).toEqual([
      'orderType: Invalid option: expected one of "single"|"direct"',
    ]);
    // The schema's own checks (ranges) run once fields, types and options pass the field walk
    // (test/unit/erp/inboxFields.test.ts), which is what keeps a hostile message cheap.
    expect(problemsOf(parseInboxBody('orderStatus', { ...bad, orderType: 'single' }))).toEqual([
      'status: must be an order status from -3 to 10',
    ]);
    const misspelt = problemsOf(parseInboxBody('orderStatus', { ...bad, staus: 3 }));
    expect(misspelt.some((p) => p.startsWith('staus: unknown field'))).toBe(true);
  });
});

describe('inbox schemas: entities', () => {
  const erpOrder = {
    salesId: 'S-100',
    patientCustomerId: 'K-1',
    outboundDate: '2026-01-15T10:00:00Z',
    deliveryAddress: { name: 'Erika Mustermann', city: 'Köln' },
    erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 2 }],
  };

  it('takes an ERP order that names the patient by the ERP customer number', () => {
    expect(parseInboxBody('erpOrder', erpOrder).ok).toBe(true);
  });

  it('names each problem by field path', () => {
    const bad = {
      ...erpOrder,
      patientCustomerId: undefined,
      erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 'two' }],
    };
    expect(problemsOf(parseInboxBody('erpOrder', bad))).toEqual([
      'erpOrderedArticleLines.0.quantity: Invalid input: expected number, received string',
      'patientId: patientId or patientCustomerId is required',
    ]);
    const empty = problemsOf(
      parseInboxBody('erpOrder', { ...erpOrder, erpOrderedArticleLines: [] }),
    );
    expect(empty).toEqual(['erpOrderedArticleLines: needs at least one line']);
  });

  it('asks of an article its customerNumber, name and a packaging unit', () => {
    const problems = problemsOf(
      parseInboxBody('article', { name: 'Kompresse', packagingUnits: [] }),
    );
    expect(problems).toEqual([
      'customerNumber: Invalid input: expected string, received undefined',
      'packagingUnits: needs at least one packaging unit',
    ]);
  });

  it('asks of an attachment base64 data and a patient', () => {
    const attachment = {
      data: 'not base64!',
      filename: 'a.pdf',
      mime: 'application/pdf',
      metadata: { type: 1 },
    };
    expect(problemsOf(parseInboxBody('attachment', attachment))).toEqual([
      'data: must be base64',
      'metadata.patientId: metadata.patientId or patientCustomerId is required',
    ]);
    const good = { ...attachment, data: 'JVBERi0=', metadata: { type: 1, patientId: 'p-1' } };
    expect(parseInboxBody('attachment', good).ok).toBe(true);
  });

  it('asks more of a create than of an update', () => {
    expect(problemsOf(parseInboxBody('productGroup', { name: 'Verbände' }))).toEqual([
      'type: required when no _id is given (a create)',
    ]);
    expect(parseInboxBody('productGroup', { _id: 'pg-1', name: 'Verbände' }).ok).toBe(true);
    expect(parseInboxBody('patient', { customerId: 'K-1', lastName: 'M' }).ok).toBe(true);
    expect(
      problemsOf(parseInboxBody('device', { serialNumber: 'SN', description: 'Pumpe' })),
    ).toEqual(['patientId: patientId or patientCustomerId is required']);
  });

  it('refuses what is not an object', () => {
    expect(problemsOf(parseInboxBody('patient', [1, 2]))).toEqual([
      'the message must be a JSON object',
    ]);
  });
});
