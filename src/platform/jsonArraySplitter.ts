/**
 * Cuts the bytes of one JSON array into the texts of its items as they arrive, without parsing
 * them: each item is then parsed whole by `JSON.parse`, which is native and many times faster
 * than a tokenizer written in JavaScript. Only the array's own brackets and commas are read
 * here; anything wrong inside an item is left for `JSON.parse` to find, and the whole list is
 * never held (only the item being cut, and not even that once it is longer than `maxItemBytes`).
 */
import { TopLevelId } from './topLevelId.js';

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

/**
 * The body is not one JSON array; `atEnd` when it was fine so far but stopped too early. `at` is
 * the offset of the byte that is wrong (the body's length when it stopped too early).
 */
export class ArrayShapeError extends Error {
  constructor(
    message: string,
    readonly atEnd: boolean,
    readonly at: number,
  ) {
    super(message);
    this.name = 'ArrayShapeError';
  }
}

/** One item cut from the array. */
export interface CutItem {
  /** The offset of its first byte in the body. */
  at: number;
  bytes: number;
  /** How deep it nests: 1 for an object of plain values, 2 with an object inside, and so on. */
  depth: number;
  /** Its text; absent when it was longer than `maxItemBytes`, so it was never held whole. */
  text?: string;
  /** Its top-level `_id`, read on the way for an item too long to hold. */
  id?: string;
}

export interface SplitterOptions {
  /** Items longer than this are not held: they are handed out without their text. */
  maxItemBytes?: number;
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
  /** Bytes of the body in the chunks before this one. */
  private offset = 0;
  /** Where the item being cut began in the body, its bytes in earlier chunks, its deepest level. */
  private itemAt = 0;
  private itemBytes = 0;
  private itemDepth = 0;
  /** Set once the item being cut outgrew `maxItemBytes`: its pieces are dropped, its `_id` read. */
  private oversized: TopLevelId | undefined;
  private readonly maxItemBytes: number;

  constructor(options: SplitterOptions = {}) {
    this.maxItemBytes = options.maxItemBytes ?? Number.POSITIVE_INFINITY;
  }

  /** The items that end in `chunk`, in order, their texts without the blanks around them. */
  push(chunk: Buffer): CutItem[] {
    const items: CutItem[] = [];
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
        this.outside(byte, at);
        at++;
        continue;
      }
      if (this.depth === 0 && (byte === COMMA || byte === CLOSE_SQUARE)) {
        this.endItem(items, chunk, start, at, byte);
        start = -1;
      } else if (!isWhitespace(byte)) {
        // Outside an item `start` is -1 (it is 0 in a chunk that goes on with an item begun before).
        if (start < 0) {
          start = at;
          this.itemAt = this.offset + at;
          this.started = true;
          this.expectItem = false;
        }
        if (byte === QUOTE) this.inString = true;
        else if (byte === OPEN_CURLY || byte === OPEN_SQUARE) this.open();
        else if (byte === CLOSE_CURLY || byte === CLOSE_SQUARE) this.close(byte, at);
      }
      at++;
    }
    if (this.started && start >= 0) this.hold(chunk.subarray(start));
    this.offset += length;
    return items;
  }

  /** Checks that the array was closed: call once the body has ended. */
  end(): void {
    if (this.phase === 'after') return;
    const problem = this.phase === 'before' ? 'no JSON array began' : 'the array was not closed';
    throw new ArrayShapeError(problem, true, this.offset);
  }

  private open(): void {
    this.depth++;
    if (this.depth > this.itemDepth) this.itemDepth = this.depth;
  }

  /** Keeps a piece of the item being cut, until the item proves too long to hold. */
  private hold(piece: Buffer): void {
    this.itemBytes += piece.length;
    if (this.oversized === undefined && this.itemBytes <= this.maxItemBytes) {
      this.pieces.push(piece);
      return;
    }
    if (this.oversized === undefined) {
      this.oversized = new TopLevelId();
      for (const held of this.pieces) this.oversized.feed(held);
      this.pieces = [];
    }
    this.oversized.feed(piece);
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

  private close(byte: number, at: number): void {
    this.depth--;
    if (this.depth < 0) {
      const found = String.fromCharCode(byte);
      throw new ArrayShapeError(`unexpected "${found}" between items`, false, this.offset + at);
    }
  }

  /** A byte before `[` or after `]`: only blanks may stand there. */
  private outside(byte: number, at: number): void {
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
    throw new ArrayShapeError(problem, false, this.offset + at);
  }

  private endItem(items: CutItem[], chunk: Buffer, start: number, at: number, byte: number): void {
    if (!this.started) {
      if (byte === CLOSE_SQUARE && !this.expectItem) {
        this.phase = 'after';
        return;
      }
      const problem = `an item is missing before "${String.fromCharCode(byte)}"`;
      throw new ArrayShapeError(problem, false, this.offset + at);
    }
    if (start >= 0) this.hold(chunk.subarray(start, at));
    items.push(this.cut());
    this.pieces = [];
    this.oversized = undefined;
    this.itemBytes = 0;
    this.itemDepth = 0;
    this.started = false;
    this.expectItem = byte === COMMA;
    if (byte === CLOSE_SQUARE) this.phase = 'after';
  }

  /** The item just ended, from its held pieces (or without its text when it was too long). */
  private cut(): CutItem {
    const { itemAt: at, itemBytes: bytes, itemDepth: depth } = this;
    if (this.oversized !== undefined) {
      const id = this.oversized.id();
      return id === undefined ? { at, bytes, depth } : { at, bytes, depth, id };
    }
    const only = this.pieces.length === 1 ? this.pieces[0] : undefined;
    // The blanks before the comma are not the item's: its text is the item alone.
    const text = (only ?? Buffer.concat(this.pieces)).toString('utf8').trimEnd();
    return { at, bytes, depth, text };
  }
}
