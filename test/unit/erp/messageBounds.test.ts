import { describe, expect, it } from 'vitest';
import {
  ERP_MESSAGE_BOUNDS,
  MAX_LIST_ITEMS,
  MAX_NESTING,
  MAX_OBJECT_KEYS,
  MAX_SCALAR_LIST_ITEMS,
} from '../../../src/erp/messages/bounds.js';
import { jsonBoundsProblem } from '../../../src/shared/jsonBounds.js';

const check = (value: unknown) => jsonBoundsProblem(JSON.stringify(value), ERP_MESSAGE_BOUNDS);
const times = <T>(count: number, make: (i: number) => T): T[] =>
  Array.from({ length: count }, (_, i) => make(i));
const order = (lines: unknown[]) => ({ salesId: 'S-1', erpOrderedArticleLines: lines });

describe('the bounds of an ERP message, checked on its text before the parse', () => {
  it('takes a list of objects up to the bound and names the list beyond it', () => {
    const line = { articleId: 'a-1', quantity: 2 };
    expect(check(order(times(MAX_LIST_ITEMS, () => line)))).toBeUndefined();
    expect(check(order(times(MAX_LIST_ITEMS + 1, () => line)))).toBe(
      `erpOrderedArticleLines: more than ${MAX_LIST_ITEMS} objects in one list; split it over several messages`,
    );
  });

  it('takes longer lists of plain values, up to their own bound', () => {
    const ids = (count: number) => ({ name: 'g', articleIds: times(count, (i) => `a-${i}`) });
    expect(check(ids(MAX_SCALAR_LIST_ITEMS))).toBeUndefined();
    expect(check(ids(MAX_SCALAR_LIST_ITEMS + 1))).toBe(
      `articleIds: more than ${MAX_SCALAR_LIST_ITEMS} entries in one list; split it over several messages`,
    );
  });

  it('refuses an object with more fields than the bound, naming where it stands', () => {
    const fields = (count: number) => Object.fromEntries(times(count, (i) => [`f${i}`, i]));
    expect(check(fields(MAX_OBJECT_KEYS))).toBeUndefined();
    expect(check(fields(60_000))).toBe(
      `the message: more than ${MAX_OBJECT_KEYS} fields in one object; no message of the contract has as many`,
    );
    expect(check(order([{ articleId: 'a' }, { attributes: fields(MAX_OBJECT_KEYS + 1) }]))).toMatch(
      /^erpOrderedArticleLines\.1\.attributes: more than 256 fields in one object/,
    );
  });

  it('refuses nesting deeper than the bound at any depth, without recursion', () => {
    const nested = (levels: number) => `{"note":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(jsonBoundsProblem(nested(MAX_NESTING - 1), ERP_MESSAGE_BOUNDS)).toBeUndefined();
    expect(jsonBoundsProblem(nested(MAX_NESTING), ERP_MESSAGE_BOUNDS)).toMatch(
      /^note\.0\.0.*: objects and arrays nest deeper than 64 levels/,
    );
    expect(jsonBoundsProblem(nested(100_000), ERP_MESSAGE_BOUNDS)).toMatch(/nest deeper/);
  });

  it('counts no bracket, comma or quote inside a string', () => {
    const text = `"${'[{,\\"'.repeat(5_000)}"`;
    expect(
      check({ noteText: JSON.parse(text) as string, list: ['a,b', '[', '{'] }),
    ).toBeUndefined();
  });

  it('cuts a long field name in the path, so that one key cannot fill the answer', () => {
    const key = 'k'.repeat(500_000);
    const problem = check({ [key]: times(MAX_LIST_ITEMS + 1, () => ({})) }) ?? '';
    expect(problem.length).toBeLessThan(400);
    expect(problem).toMatch(/^k{64}…: more than 1000 objects/);
  });
});
