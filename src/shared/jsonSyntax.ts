/**
 * Where a JSON text first goes wrong, for an error that points at the byte: `JSON.parse` says so
 * for some mistakes only ("Unexpected token 'x', ... is not valid JSON" names no position). Run
 * only once `JSON.parse` has refused the text, so its speed does not matter; it keeps its own
 * stack, so a text nested 100,000 deep cannot exhaust the call stack.
 */

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

type State = 'value' | 'firstValue' | 'key' | 'firstKey' | 'after';

function blanksEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && ' \t\n\r'.includes(text.charAt(at))) at++;
  return at;
}

function matchEnd(pattern: RegExp, text: string, at: number): number | undefined {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : undefined;
}

/** The end of the string opened at `at`, or the position of what is wrong in it (negated - 1). */
function stringEnd(text: string, at: number): number {
  let next = at + 1;
  while (next < text.length) {
    const code = text.charCodeAt(next);
    if (code === 0x22) return next + 1;
    if (code < 0x20) return -next - 1;
    if (code === 0x5c) {
      const end = matchEnd(ESCAPE, text, next);
      if (end === undefined) return -next - 1;
      next = end;
    } else next++;
  }
  return -next - 1;
}

/** The end of the plain value (string, number, literal) at `at`, or the position of the error. */
function scalarEnd(text: string, at: number): { end: number } | { wrong: number } {
  if (text.charAt(at) === '"') {
    const end = stringEnd(text, at);
    return end < 0 ? { wrong: -end - 1 } : { end };
  }
  const end = matchEnd(/[-\d]/y, text, at)
    ? matchEnd(NUMBER, text, at)
    : matchEnd(LITERAL, text, at);
  return end === undefined ? { wrong: at } : { end };
}

/**
 * The position (in characters) of the first character that makes `text` not JSON; the text's
 * length when it stops too early; undefined when it is JSON after all.
 */
export function invalidAt(text: string): number | undefined {
  const closers: string[] = [];
  let state: State = 'value';
  let at = blanksEnd(text, 0);
  for (;;) {
    const char = text.charAt(at);
    const closer = closers[closers.length - 1];
    if (state === 'after') {
      if (closer === undefined) return at < text.length ? at : undefined;
      if (char === closer) closers.pop();
      else if (char === ',') state = closer === '}' ? 'key' : 'value';
      else return at;
      at = blanksEnd(text, at + 1);
    } else if ((state === 'firstKey' && char === '}') || (state === 'firstValue' && char === ']')) {
      closers.pop();
      state = 'after';
      at = blanksEnd(text, at + 1);
    } else if (state === 'key' || state === 'firstKey') {
      if (char !== '"') return at;
      const end = stringEnd(text, at);
      if (end < 0) return -end - 1;
      at = blanksEnd(text, end);
      if (text.charAt(at) !== ':') return at;
      state = 'value';
      at = blanksEnd(text, at + 1);
    } else if (char === '{' || char === '[') {
      closers.push(char === '{' ? '}' : ']');
      state = char === '{' ? 'firstKey' : 'firstValue';
      at = blanksEnd(text, at + 1);
    } else {
      const scalar = scalarEnd(text, at);
      if ('wrong' in scalar) return scalar.wrong;
      state = 'after';
      at = blanksEnd(text, scalar.end);
    }
  }
}
