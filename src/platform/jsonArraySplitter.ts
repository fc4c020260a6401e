/**
 * Cuts the bytes of one JSON array into the texts of its items as they arrive, without parsing
 * them: each item is then parsed whole by `JSON.parse`, which is native and many times faster
 * than a tokenizer written in JavaScript. Only the array's own brackets and commas are read
 * here; anything wrong inside an item is left for `JSON.parse` to find, and the whole list is
 * never held (only the item being cut).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The body is not one JSON array; `atEnd` when it was fine so far but stopped too early. */
export class ArrayShapeError extends Error {
  constructor(
    message: string,
    readonly atEnd: boolean,
  ) {
    super(message);
    this.name = 'ArrayShapeError';
  }
}

type Phase = 'before' | 'items' | 'after';

export class JsonArraySplitter {
  private phase: Phase = 'before';
  /** Nesting below the array: 0 between items, 1 inside an item's outer object, and so on. */
  private depth = 0;
  private inString = false;
  /** The previous chunk ended on a backslash inside a string: the next byte is escaped. */
  private escaped = false;
  /** Pieces of the item being cut, from earlier chunks. */
  private pieces: Buffer[] = [];
  /** Whether the item being cut has begun (a non-blank byte since the last comma). */
  private started = false;
  /** At least one comma or item since `[`: a `]` then needs an item before it. */
  private expectItem = false;

  /** The texts of the items that end in `chunk`, in order, without the blanks around them. */
  push(chunk: Buffer): string[] {
    const items: string[] = [];
    let start = this.started ? 0 : -1;
    let at = 0;
    const length = chunk.length;
    while (at < length) {
      if (this.inString) {
        at = this.stringEnd(chunk, at);
        continue;
      }
      const byte = chunk[at] as number;
      if (this.phase !== 'items') {
        this.outside(byte);
        at++;
        continue;
      }
      if (this.depth === 0 && (byte === COMMA || byte === CLOSE_SQUARE)) {
        this.endItem(items, chunk, start, at, byte);
        start = -1;
      } else if (!isWhitespace(byte)) {
        if (start < 0) start = at;
        this.started = true;
        this.expectItem = false;
        if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_CURLY || byte === OPEN_SQUARE) this.depth++;
        else if (byte === CLOSE_CURLY || byte === CLOSE_SQUARE) this.close(byte);
      }
      at++;
    }
    if (this.started && start >= 0) this.pieces.push(chunk.subarray(start));
    return items;
  }

  /** Checks that the array was closed: call once the body has ended. */
  end(): void {
    if (this.phase === 'after') return;
    const problem = this.phase === 'before' ? 'no JSON array began' : 'the array was not closed';
    throw new ArrayShapeError(problem, true);
  }

  /** The position after the string's closing quote, or the chunk's end when it goes on. */
  private stringEnd(chunk: Buffer, from: number): number {
    let at = from;
    if (this.escaped) {
      this.escaped = false;
      at++;
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, at);
      const end = quote < 0 ? chunk.length : quote;
      // Backslashes run back from here to `at` at most: the byte before `at` is never one that counts.
      let backslashes = 0;
      while (end - backslashes - 1 >= at && chunk[end - backslashes - 1] === BACKSLASH)
        backslashes++;
      const odd = backslashes % 2 === 1;
      if (quote < 0) {
        this.escaped = odd;
        return chunk.length;
      }
      if (!odd) {
        this.inString = false;
        return quote + 1;
      }
      at = quote + 1;
    }
  }

  private close(byte: number): void {
    this.depth--;
    if (this.depth < 0) {
      throw new ArrayShapeError(`unexpected "${String.fromCharCode(byte)}" between items`, false);
    }
  }

  /** A byte before `[` or after `]`: only blanks may stand there. */
  private outside(byte: number): void {
    if (isWhitespace(byte)) return;
    if (this.phase === 'before' && byte === OPEN_SQUARE) {
      this.phase = 'items';
      return;
    }
    const found = String.fromCharCode(byte);
    const problem =
      this.phase === 'before'
        ? `the body is not a JSON array (it begins with "${found}")`
        : `unexpected "${found}" after the array`;
    throw new ArrayShapeError(problem, false);
  }

  private endItem(items: string[], chunk: Buffer, start: number, at: number, byte: number): void {
    if (!this.started) {
      if (byte === CLOSE_SQUARE && !this.expectItem) {
        this.phase = 'after';
        return;
      }
      throw new ArrayShapeError(`an item is missing before "${String.fromCharCode(byte)}"`, false);
    }
    const tail = start >= 0 ? chunk.subarray(start, at) : undefined;
    const text =
      this.pieces.length === 0 && tail !== undefined
        ? tail.toString('utf8')
        : Buffer.concat(tail === undefined ? this.pieces : [...this.pieces, tail]).toString('utf8');
    // The blanks before the comma are not the item's: its text is the item alone.
    items.push(text.trimEnd());
    this.pieces = [];
    this.started = false;
    this.expectItem = byte === COMMA;
    if (byte === CLOSE_SQUARE) this.phase = 'after';
  }
}
