import { describe, expect, it } from 'vitest';
import { invalidAt } from '../../../src/shared/jsonSyntax.js';
import { TopLevelId } from '../../../src/platform/topLevelId.js';

function idOf(text: string, pieceBytes = text.length): string | undefined {
  const reader = new TopLevelId();
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += pieceBytes)
    reader.feed(bytes.subarray(at, at + pieceBytes));
  return reader.id();
}

describe('reading the top-level _id of a record as it streams', () => {
  it.each([
    ['{"_id":"a-1","x":1}', 'a-1'],
    ['{ "x": {"_id": "inner"}, "list": [{"_id":"no"}], "_id" : "outer" }', 'outer'],
    ['{"note":"a \\"_id\\": \\"fake\\"","_id":"real"}', 'real'],
    ['{"_id":"esc\\u00e4ped"}', 'escäped'],
    ['{"_id":42,"x":1}', '42'],
    ['{"x":1}', undefined],
    ['["_id","a"]', undefined],
  ])('%s → %s, in any pieces', (text, id) => {
    expect(idOf(text)).toBe(id);
    expect(idOf(text, 1)).toBe(id);
  });
});

describe('where a JSON text goes wrong', () => {
  it.each([
    ['{"a": x}', 6],
    ['{"a":1,}', 7],
    ['[1,2', 4],
    ['{"a" 1}', 5],
    ['{"a":"tab\there"}', 9],
    ['{"a":[1,{"b":nul}]}', 13],
    ['{"a":1} x', 8],
  ])('%j at %i', (text, at) => {
    expect(() => JSON.parse(text) as unknown).toThrow(SyntaxError);
    expect(invalidAt(text)).toBe(at);
  });

  it('finds nothing wrong in JSON, however deep', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(invalidAt(deep)).toBeUndefined();
    expect(invalidAt('{"a":[1,-2.5e3,true,null,{"b":"\\u00e4\\n"}],"c":{}}')).toBeUndefined();
  });
});
