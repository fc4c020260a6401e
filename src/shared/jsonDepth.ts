/**
 * How deep objects and arrays may nest in a message from the ERP. Real messages use fewer than
 * ten levels; a limit keeps a hostile or broken message from exhausting the stack of whatever
 * walks it later (validation, JSON.stringify).
 */
export const MAX_JSON_DEPTH = 64;

const OPENERS = new Set(['{', '[']);
const CLOSERS = new Set(['}', ']']);

/**
 * The character offset at which `text` nests deeper than `limit`, or undefined. One pass over
 * the text without recursion; brackets inside strings do not count. It does not check syntax:
 * the parser does that afterwards.
 */
export function nestingBeyond(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at] ?? '';
    if (inString) {
      if (char === '\\') at += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (OPENERS.has(char)) {
      depth += 1;
      if (depth > limit) return at;
    } else if (CLOSERS.has(char)) {
      depth -= 1;
    }
  }
  return undefined;
}

/** The reason a text nesting too deep is refused, naming the limit and where it was passed. */
export function nestingProblem(text: string, limit = MAX_JSON_DEPTH): string | undefined {
  const at = nestingBeyond(text, limit);
  if (at === undefined) return undefined;
  return `objects and arrays nest deeper than ${limit} levels (passed at character ${at}); ERP messages need only a few levels`;
}
