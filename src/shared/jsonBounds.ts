import { exactNumber } from './decimals.js';

/**
 * Bounds on the shape of a JSON text, checked before it is parsed: a parser and every walker
 * after it spend time and memory in proportion to the shape. `JSON.parse` of one object with
 * 60,000 keys holds the event loop for 70-170 ms; a nesting of 100,000 levels exhausts the stack
 * of whatever walks it recursively. The same pass refuses what `JSON.parse` would take
 * silently: a key twice in one object (the last one would win), a `__proto__` key, a number
 * a double cannot hold exactly.
 */
export interface JsonBounds {
  /** How deep objects and arrays may nest. */
  depth: number;
  /** Keys of one object. */
  keys: number;
  /** Items of one array. */
  items: number;
  /** Objects among the items of one array (each costs far more than a plain value). */
  objectItems: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** One open object or array: its separators so far, and (objects) where its last key stands. */
interface Level {
  object: boolean;
  commas: number;
  objects: number;
  keyStart: number;
  keyEnd: number;
  /** Where its first key stands, and its keys so far (a set made at its second key). */
  firstKeyStart: number;
  firstKeyEnd: number;
  keys?: Set<string>;
}

/** Whether the quote at `at` is escaped: an odd number of backslashes stands before it. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
  return backslashes % 2 === 1;
}

/** Where the string opened at `open` ends (its closing quote), or the text's end. */
function closingQuote(text: string, open: number): number {
  // indexOf runs natively: a long string value is skipped at memory speed.
  let at = text.indexOf('"', open + 1);
  while (at !== -1 && escaped(text, at)) at = text.indexOf('"', at + 1);
  return at === -1 ? text.length : at;
}

/** A path's segments and whole are cut to these, so that a hostile key cannot fill an answer. */
const MAX_SEGMENT = 64;
const MAX_PATH = 200;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The field path of the innermost open container, e.g. `erpOrderedArticleLines.3.attributes`. */
function pathOf(text: string, levels: readonly Level[]): string {
  const segments = levels.map((level) =>
    level.object ? cut(text.slice(level.keyStart + 1, level.keyEnd), MAX_SEGMENT) : level.commas,
  );
  return cut(segments.join('.'), MAX_PATH);
}

function where(text: string, levels: readonly Level[]): string {
  const path = pathOf(text, levels);
  return path === '' ? 'the message' : path;
}

const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
/** The characters a JSON number literal is made of. */
const NUMBER_CHAR = /[-+.eE0-9]/;

/** A key as the parser reads it: escapes resolved (`"\u0061"` is the key `a`). */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    // A broken escape: the strict parse of the whole body refuses it with its place.
    return raw;
  }
}

/** A key that `JSON.parse` would take silently: the object's second of a name, `__proto__`. */
function keyProblem(text: string, levels: readonly Level[], top: Level): string | undefined {
  const key = keyText(text, top.keyStart, top.keyEnd);
  const inside = pathOf(text, levels.slice(0, -1));
  const at = inside === '' ? '' : `${inside}: `;
  if (key === '__proto__') {
    return `${at}the key __proto__ is refused: no message of the contract has it, and JavaScript takes it for the object's prototype`;
  }
  if (top.commas === 0) return undefined;
  top.keys ??= new Set([keyText(text, top.firstKeyStart, top.firstKeyEnd)]);
  if (!top.keys.has(key)) {
    top.keys.add(key);
    return undefined;
  }
  return `${at}the field ${cut(key, MAX_SEGMENT)} is there twice; which one is meant cannot be told: send each field once`;
}

/** Where the number literal starting at `start` ends, and why it is refused, if it is. */
function numberAt(
  text: string,
  levels: readonly Level[],
  start: number,
): { end: number; problem?: string } {
  let end = start + 1;
  while (end < text.length && NUMBER_CHAR.test(text.charAt(end))) end += 1;
  const literal = text.slice(start, end);
  // A literal beyond a double's range is named by the message check, as not finite.
  if (!Number.isFinite(Number(literal))) return { end };
  const exact = exactNumber(literal);
  if (!('problem' in exact)) return { end };
  return { end, problem: `${where(text, levels)}: ${exact.problem}` };
}

/**
 * Why `text` is outside `bounds` or says something twice, naming the field, or undefined. One
 * pass over the text without recursion; brackets and commas inside strings do not count. It
 * does not check syntax: the parser does that afterwards.
 */
export function jsonBoundsProblem(text: string, bounds: JsonBounds): string | undefined {
  const levels: Level[] = [];
  let top: Level | undefined;
  let lastStringStart = -1;
  let lastStringEnd = -1;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (char === QUOTE) {
      lastStringStart = at;
      at = closingQuote(text, at);
      lastStringEnd = at;
    } else if (char === OPEN_OBJECT || char === OPEN_ARRAY) {
      if (levels.length >= bounds.depth) {
        return `${where(text, levels)}: objects and arrays nest deeper than ${bounds.depth} levels (at character ${at}); ERP messages need only a few levels`;
      }
      if (top?.object === false && char === OPEN_OBJECT && ++top.objects > bounds.objectItems) {
        return `${where(text, levels.slice(0, -1))}: more than ${bounds.objectItems} objects in one list; split it over several messages`;
      }
      top = {
        object: char === OPEN_OBJECT,
        commas: 0,
        objects: 0,
        keyStart: -1,
        keyEnd: -1,
        firstKeyStart: -1,
        firstKeyEnd: -1,
      };
      levels.push(top);
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      levels.pop();
      top = levels.at(-1);
    } else if (char === COLON && top?.object === true) {
      top.keyStart = lastStringStart;
      top.keyEnd = lastStringEnd;
      if (top.commas === 0) {
        top.firstKeyStart = lastStringStart;
        top.firstKeyEnd = lastStringEnd;
      }
      const problem = keyProblem(text, levels, top);
      if (problem !== undefined) return problem;
    } else if (char === MINUS || (char >= DIGIT_0 && char <= DIGIT_9)) {
      const number = numberAt(text, levels, at);
      if (number.problem !== undefined) return number.problem;
      at = number.end - 1;
    } else if (char === COMMA && top !== undefined) {
      top.commas += 1;
      const limit = top.object ? bounds.keys : bounds.items;
      if (top.commas >= limit) {
        const inside = where(text, levels.slice(0, -1));
        return top.object
          ? `${inside}: more than ${limit} fields in one object; no message of the contract has as many`
          : `${inside}: more than ${limit} entries in one list; split it over several messages`;
      }
    }
  }
  return undefined;
}
