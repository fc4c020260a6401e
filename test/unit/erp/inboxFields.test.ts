import { describe, expect, it } from 'vitest';
import { checkMessage, parseInboxBody } from '../../support/inboxKinds.js';
import { MAX_LISTED_PROBLEMS } from '../../../src/erp/messages/bounds.js';

const problemsOf = (result: ReturnType<typeof parseInboxBody>) =>
  result.ok ? [] : result.problems;

const erpOrder = {
  salesId: 'S-100',
  patientCustomerId: 'K-1',
  outboundDate: '2026-01-15T10:00:00Z',
  deliveryAddress: { name: 'Erika Mustermann', city: 'Köln' },
  erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 2 }],
};
const line = { articleId: 'a-1', quantity: 2 };
const lines = (count: number, make: (i: number) => object = () => line) =>
  Array.from({ length: count }, (_, i) => make(i));

describe('inbox fields: unknown fields', () => {
  it('refuses a field the contract does not define, at the top and nested, naming its path', () => {
    const bad = {
      ...erpOrder,
      noSuchField: 1,
      deliveryAddress: { city: 'Köln', floor: 3 },
      erpOrderedArticleLines: [line, { ...line, colour: 'blau' }],
    };
    const problems = problemsOf(parseInboxBody('erpOrder', bad));
    // In the order of the message's keys (a spread keeps a replaced key where it was).
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'deliveryAddress.floor',
      'erpOrderedArticleLines.1.colour',
      'noSuchField',
    ]);
    expect(problems[2]).toMatch(
      /unknown field: .*remove or rename it.*inbound\.unknownFields: drop/,
    );
  });

  it('takes the ERP references the handlers resolve, and nothing the kind does not read', () => {
    expect(parseInboxBody('erpOrder', erpOrder).ok).toBe(true);
    const article = {
      customerNumber: '100-2001',
      articleNumber: '100-2001',
      name: 'Kompresse',
      packagingUnits: [{ quantity: 10, unit: 'Stück' }],
    };
    expect(parseInboxBody('article', article).ok).toBe(true);
    const patient = { customerId: 'K-1', patientCustomerId: 'K-1' };
    expect(problemsOf(parseInboxBody('patient', patient))).toEqual([
      expect.stringMatching(/^patientCustomerId: unknown field/),
    ]);
  });

  it('refuses keys that name what every object inherits, without reading them', () => {
    const json = JSON.parse(
      '{"customerId":"K-1","constructor":{"a":1},"toString":1,"__proto__":{"polluted":true}}',
    ) as unknown;
    expect(problemsOf(parseInboxBody('patient', json))).toEqual([
      expect.stringMatching(/^constructor: unknown field/),
      expect.stringMatching(/^toString: unknown field/),
      expect.stringMatching(/^__proto__: unknown field/),
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says which known field a near miss means, whatever its case', () => {
    const problems = problemsOf(
      parseInboxBody('erpOrder', {
        ...erpOrder,
        salesid: 'x',
        erpOrderedArticleLines: [{ quantty: 1 }],
      }),
    );
    expect(problems[0]).toMatch(
      /^erpOrderedArticleLines\.0\.quantty: unknown field \(did you mean "quantity"\?\)/,
    );
    expect(problems[1]).toMatch(/^salesid: unknown field \(did you mean "salesId"\?\)/);
    const far = problemsOf(parseInboxBody('erpOrder', { ...erpOrder, zzz: 1 }));
    expect(far[0]).not.toContain('did you mean');
  });

  it('refuses an unknown orderStatus field in the same words, with no zod message', () => {
    const body = { orderType: 'single', id: 'o-1', staus: 3 };
    const problems = problemsOf(parseInboxBody('orderStatus', body));
    expect(problems[0]).toMatch(/^staus: unknown field \(did you mean "status"\?\)/);
    expect(problems.join('\n')).not.toContain('Unrecognized key');
  });

  it('leaves open what the contract leaves open, and still checks what is inside', () => {
    const care = {
      _id: 'ic-1',
      calculations: { anything: { goes: [1, 2] } },
      proposedServiceLines: [{ whatever: 'the platform sends' }],
      articleLines: [{ attributes: [{ name: 'Größe', value: { free: 'form' } }] }],
    };
    expect(parseInboxBody('integratedCare', care).ok).toBe(true);
    const patient = { customerId: 'K-1', additionalAttributes: { ownKey: 1 } };
    expect(parseInboxBody('patient', patient).ok).toBe(true);
    const overflow = JSON.parse('{"_id":"ic-1","calculations":{"deep":[1e400]}}') as unknown;
    expect(problemsOf(parseInboxBody('integratedCare', overflow))).toEqual([
      expect.stringMatching(/^calculations\.deep\.0: not a finite number/),
    ]);
  });
});

describe('inbox fields: values and bounds', () => {
  it('refuses a number JSON.parse made Infinity', () => {
    const json = JSON.parse(
      '{"salesId":"S","patientId":"p","outboundDate":"x","deliveryAddress":{},' +
        '"erpOrderedArticleLines":[{"quantity":1e400},{"quantity":-1e999}]}',
    ) as unknown;
    expect(problemsOf(parseInboxBody('erpOrder', json))).toEqual([
      expect.stringMatching(/^erpOrderedArticleLines\.0\.quantity: not a finite number/),
      expect.stringMatching(/^erpOrderedArticleLines\.1\.quantity: not a finite number/),
    ]);
  });

  it('lists the first problems and counts the rest in one closing line', () => {
    const bad = lines(500, () => ({ articleId: 7, quantity: 'two' }));
    const problems = problemsOf(
      parseInboxBody('erpOrder', { ...erpOrder, erpOrderedArticleLines: bad }),
    );
    expect(problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(problems[0]).toBe(
      'erpOrderedArticleLines.0.articleId: Invalid input: expected string, received number',
    );
    expect(problems.at(-1)).toBe(`… and ${1000 - MAX_LISTED_PROBLEMS} more problems`);
  });

  it('caps what the schemas find the same way', () => {
    const bad = lines(40, () => ({ quantity: 1, unit: '' }));
    const article = { customerNumber: 'A', name: 'N', packagingUnits: bad };
    const problems = problemsOf(parseInboxBody('article', article));
    expect(problems).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(problems.at(-1)).toBe(`… and ${40 - MAX_LISTED_PROBLEMS} more problems`);
  });
});

describe('inbox fields: unknownFields drop', () => {
  it('leaves unknown fields out of the body, names each once, and keeps the caller’s message', () => {
    const message = {
      ...erpOrder,
      noSuchField: 'secret value',
      erpOrderedArticleLines: [
        { ...line, colour: 'blau' },
        { ...line, colour: 'rot' },
      ],
    };
    const told: string[][] = [];
    const parsed = parseInboxBody('erpOrder', message, {
      unknownFields: 'drop',
      dropped: (kind, paths) => told.push([kind, ...paths]),
    });
    expect(parsed).toEqual({
      ok: true,
      body: { ...erpOrder, erpOrderedArticleLines: [line, line] },
    });
    expect(told).toEqual([['erpOrder', 'erpOrderedArticleLines.*.colour', 'noSuchField']]);
    expect(message.noSuchField).toBe('secret value');
  });

  it('still refuses what is wrong besides', () => {
    const checked = checkMessage('erpOrder', { ...erpOrder, extra: 1, salesId: 5 }, 'drop');
    expect(checked).toEqual({
      ok: false,
      problems: [{ path: 'salesId', message: 'Invalid input: expected string, received number' }],
    });
  });
});
