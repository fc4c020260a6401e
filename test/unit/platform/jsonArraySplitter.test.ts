import { describe, expect, it } from 'vitest';
import { ArrayShapeError, JsonArraySplitter } from '../../../src/platform/jsonArraySplitter.js';

/** The items the splitter cuts from the chunks of one body, each parsed. */
function split(chunks: readonly Buffer[]): unknown[] {
  const splitter = new JsonArraySplitter();
  const items = chunks.flatMap((chunk) => splitter.push(chunk));
  splitter.end();
  return items.map((item): unknown => JSON.parse(item.text ?? ''));
}

/** `text` cut at every byte position into two chunks, and into chunks of one byte. */
function everyCut(text: string): Buffer[][] {
  const bytes = Buffer.from(text, 'utf8');
  const cuts: Buffer[][] = [[bytes]];
  for (let at = 1; at < bytes.length; at++) cuts.push([bytes.subarray(0, at), bytes.subarray(at)]);
  cuts.push([...bytes].map((byte) => Buffer.from([byte])));
  return cuts;
}

function shapeError(text: string): ArrayShapeError {
  try {
    split([Buffer.from(text)]);
  } catch (error) {
    if (error instanceof ArrayShapeError) return error;
    throw error;
  }
  throw new Error(`${text} was split without an error`);
}

describe('the JSON array splitter', () => {
  const tricky = [
    { _id: 'a', note: 'quote " and backslash \\ and \\" both', list: [1, [2, { x: ']' }]] },
    { _id: 'b', text: 'commas, brackets ] } [ { inside', empty: {}, none: [] },
    { _id: 'c', umlaut: 'Größe ü – 😀', escaped: '\u00e9\n\t\\\\' },
    { _id: 'd', ends: '\\' },
    'a string item',
    42,
    null,
  ];

  it('cuts every item whole, wherever the chunks break (strings, escapes, nesting, UTF-8)', () => {
    const text = ` \n[ ${tricky.map((item) => JSON.stringify(item)).join(' ,\n')} ]\n `;
    for (const chunks of everyCut(text)) expect(split(chunks)).toEqual(tricky);
  });

  it('agrees with JSON.parse on a long list of realistic records', () => {
    const records = Array.from({ length: 2_000 }, (_, n) => ({
      _id: `order-${n}`,
      status: n % 3,
      lines: [{ pzn: `${n}`, quantity: n, note: n % 7 === 0 ? 'a "quoted" \\ note' : 'plain' }],
    }));
    const text = JSON.stringify(records);
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 997) chunks.push(bytes.subarray(at, at + 997));
    expect(split(chunks)).toEqual(JSON.parse(text));
  });

  it('hands out each item exactly as written, without the blanks around it', () => {
    const text = '[ {"a": 2.50, "b": "caf\\u00e9"} ,\n\t{ "c" : [ 1 ] }\r\n, "x y" ,7 ]';
    const expected = ['{"a": 2.50, "b": "caf\\u00e9"}', '{ "c" : [ 1 ] }', '"x y"', '7'];
    for (const chunks of everyCut(text)) {
      const splitter = new JsonArraySplitter();
      expect(chunks.flatMap((chunk) => splitter.push(chunk)).map((item) => item.text)).toEqual(
        expected,
      );
    }
  });

  it('reads an empty array, with or without blanks', () => {
    expect(split([Buffer.from('[]')])).toEqual([]);
    expect(split([Buffer.from(' [ \n ] ')])).toEqual([]);
  });

  it.each([
    ['{"_id":"a"}', 'not a JSON array'],
    ['[{"a":1}] x', 'after the array'],
    ['[{"a":1}}]', 'between items'],
    ['[{"a":1},]', 'an item is missing'],
    ['[,{"a":1}]', 'an item is missing'],
    ['[{"a":1},,{"b":2}]', 'an item is missing'],
  ])('refuses %s as a broken array, not a cut one', (text, problem) => {
    const error = shapeError(text);
    expect(error.message).toContain(problem);
    expect(error.atEnd).toBe(false);
  });

  it.each(['', '   ', '[', '[{"a":1}', '[{"a":1},', '[{"a":"open string'])(
    'says %j stopped too early once the body ends',
    (text) => {
      const error = shapeError(text);
      expect(error.atEnd).toBe(true);
    },
  );

  it('leaves what is wrong inside an item to JSON.parse', () => {
    const splitter = new JsonArraySplitter();
    const items = splitter.push(Buffer.from('[{"a":1 "b":2}, {"c":]]')).map((item) => item.text);
    expect(items).toEqual(['{"a":1 "b":2}', '{"c":]']);
    expect(() => {
      JSON.parse(items[0] ?? '');
    }).toThrow(SyntaxError);
  });

  it('says where each item begins and where a broken array goes wrong, in bytes', () => {
    const splitter = new JsonArraySplitter();
    const items = splitter.push(Buffer.from('[ {"a":"ä"}, 7 ]'));
    expect(items.map((item) => [item.at, item.bytes])).toEqual([
      [2, 10],
      [14, 2],
    ]);
    expect(shapeError('[{"a":1}}]').at).toBe(8);
    expect(shapeError('[{"a":1},').at).toBe(9);
  });

  it('measures how deep each item nests', () => {
    const splitter = new JsonArraySplitter();
    const items = splitter.push(Buffer.from('[{"a":1},{"a":[[{"b":[]}]]},"s"]'));
    expect(items.map((item) => item.depth)).toEqual([1, 5, 0]);
  });

  it('does not hold an item longer than maxItemBytes, yet reads its _id and cuts on after it', () => {
    const big = JSON.stringify({ _id: 'big-1', note: 'x'.repeat(5_000), nested: { _id: 'no' } });
    const text = `[{"_id":"a"},${big},{"_id":"b"}]`;
    for (const chunks of [[Buffer.from(text)], everyCut(text).at(-1) ?? []]) {
      const splitter = new JsonArraySplitter({ maxItemBytes: 1_000 });
      const items = chunks.flatMap((chunk) => splitter.push(chunk));
      splitter.end();
      expect(items.map((item) => item.text)).toEqual(['{"_id":"a"}', undefined, '{"_id":"b"}']);
      expect(items[1]).toMatchObject({ id: 'big-1', bytes: big.length });
    }
  });
});
