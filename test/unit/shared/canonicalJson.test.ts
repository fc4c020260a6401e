import { describe, expect, it } from 'vitest';
import { canonicalJson, sameJson } from '../../../src/shared/canonicalJson.js';

/** Pairs of JSON texts, parsed as the pull parses them. */
const PAIRS: readonly [string, string][] = [
  ['{"a":1,"b":[1,2]}', '{ "b": [1, 2], "a": 1.0 }'],
  ['{"a":1,"b":[1,2]}', '{"a":1,"b":[2,1]}'],
  ['{"a":null}', '{}'],
  ['{"a":{"x":[{"y":"z"}]}}', '{"a":{"x":[{"y":"z","w":0}]}}'],
  ['[1,"1"]', '[1,1]'],
  ['{"__proto__":{}}', '{}'],
  ['{"__proto__":{"a":1}}', '{"__proto__":{"a":1}}'],
  ['{"a":[]}', '{"a":{}}'],
  ['0', '-0'],
];

describe('sameJson', () => {
  it.each(PAIRS)('agrees with canonicalJson on %s and %s', (left, right) => {
    const [a, b] = [JSON.parse(left) as unknown, JSON.parse(right) as unknown];
    expect(sameJson(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
    expect(sameJson(b, a)).toBe(canonicalJson(a) === canonicalJson(b));
  });

  it('leaves the ignored keys out of every object, at any depth', () => {
    const ignored = new Set(['timestamp']);
    const a = { x: [{ id: 1, timestamp: 't1' }], timestamp: 't1' };
    const b = { x: [{ id: 1, timestamp: 't2' }] };
    expect(sameJson(a, b, ignored)).toBe(true);
    expect(sameJson(a, b)).toBe(false);
    expect(sameJson(a, { x: [{ id: 2 }] }, ignored)).toBe(false);
  });
});
