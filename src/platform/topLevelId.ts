/**
 * Reads the top-level `_id` of one JSON object from its bytes as they pass, without holding the
 * object: a record too long to keep is still set aside under its own name. Only the object's own
 * keys count (an `_id` of a nested object is not the record's), and the scan stops once the id is
 * read, which for the platform's records is in the first bytes.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_CURLY = 0x7b;
const OPEN_SQUARE = 0x5b;
const CLOSE_CURLY = 0x7d;
const CLOSE_SQUARE = 0x5d;

/** Longer ids are not the platform's (its ids are UUIDs and short keys): they are not kept. */
const MAX_ID_BYTES = 256;

/** Where in the object's grammar the scan stands, at its own level. */
type Expect = 'key' | 'colon' | 'value' | 'other';

export class TopLevelId {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expect: Expect = 'other';
  /** The bytes of the string being read, when it is a key or the value of `_id`. */
  private text: number[] | undefined;
  private keyIsId = false;
  private readingId = false;
  private found: string | undefined;
  private done = false;

  feed(bytes: Buffer): void {
    for (let at = 0; at < bytes.length && !this.done; at++) {
      const byte = bytes[at] as number;
      if (this.inString) this.inside(byte);
      else this.outside(byte);
    }
  }

  id(): string | undefined {
    return this.found;
  }

  private inside(byte: number): void {
    if (this.escaped) this.escaped = false;
    else if (byte === BACKSLASH) this.escaped = true;
    else if (byte === QUOTE) {
      this.inString = false;
      this.stringEnded();
      return;
    }
    if (this.text !== undefined && this.text.length <= MAX_ID_BYTES) this.text.push(byte);
  }

  private stringEnded(): void {
    const text = this.text === undefined ? undefined : this.decoded(this.text);
    this.text = undefined;
    if (this.readingId) {
      this.found = text;
      this.done = true;
    } else if (this.expect === 'key') {
      this.keyIsId = text === '_id';
      this.expect = 'colon';
    }
  }

  /** The string's value (escapes undone), or undefined when it is too long to be an id. */
  private decoded(bytes: number[]): string | undefined {
    if (bytes.length > MAX_ID_BYTES) return undefined;
    try {
      return JSON.parse(`"${Buffer.from(bytes).toString('utf8')}"`) as string;
    } catch {
      // An escape JSON does not define: no id to take, and the body's own parse says why.
      return undefined;
    }
  }

  private outside(byte: number): void {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) return;
    const own = this.depth === 1;
    if (byte === QUOTE) {
      this.inString = true;
      const wanted = own && (this.expect === 'key' || (this.expect === 'value' && this.keyIsId));
      this.readingId = own && this.expect === 'value' && this.keyIsId;
      this.text = wanted ? [] : undefined;
      if (own && this.expect === 'value') this.expect = 'other';
      return;
    }
    if (byte === OPEN_CURLY || byte === OPEN_SQUARE) {
      this.depth++;
      if (this.depth === 1) this.expect = byte === OPEN_CURLY ? 'key' : 'other';
      if (this.depth === 1 && byte === OPEN_SQUARE) this.done = true;
      if (this.depth === 2) this.expect = 'other';
      return;
    }
    if (byte === CLOSE_CURLY || byte === CLOSE_SQUARE) {
      this.depth--;
      if (this.depth <= 0) this.done = true;
      return;
    }
    if (!own) return;
    if (byte === COLON && this.expect === 'colon') this.expect = 'value';
    else if (byte === COMMA) this.expect = 'key';
    else if (this.expect === 'value') this.numberId(byte);
  }

  /** An `_id` that is a number: its digits are read as they come. */
  private numberId(byte: number): void {
    if (!this.keyIsId) {
      this.expect = 'other';
      return;
    }
    const digit = (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2e;
    if (digit) this.found = `${this.found ?? ''}${String.fromCharCode(byte)}`;
    else this.expect = 'other';
  }
}
