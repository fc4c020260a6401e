import { SaxesParser, type SaxesTagNS } from 'saxes';
import { invalidUtf8Offset } from '../../../shared/utf8.js';
import { decodeWindows1252, notWindows1252 } from '../text.js';
import type { Problem } from '../../messages/problems.js';
import {
  MAX_NESTING,
  MAX_OBJECT_KEYS,
  MAX_XML_BYTES,
  MAX_XML_ELEMENTS,
} from '../../messages/bounds.js';

/**
 * The one way XML from the ERP is read, every file hostile until shown otherwise: a DOCTYPE is
 * refused whatever it holds, so no external entity or DTD is read (XXE) and no entity expanded
 * (billion laughs); depth, element count and attributes are bounded (messages/bounds.ts); namespaces are
 * resolved, so an element is known by its namespace and local name, never by a chosen prefix.
 * saxes parses strictly and never resolves anything outside the text it is given.
 */

export interface XmlElement {
  /** The local name, without prefix. */
  name: string;
  namespace: string;
  /** By qualified name as written (`type`, `xml:lang`); a Map, so no name reaches a prototype. */
  attributes: ReadonlyMap<string, string>;
  children: XmlElement[];
  /** The element's own text and CDATA, children's text left out. */
  text: string;
  /** Line of the start tag, 1-based. */
  line: number;
}

type XmlRead =
  { ok: true; root: XmlElement } | { ok: false; reason: string; line?: number; column?: number };

/** Thrown inside saxes' handlers to stop the parse at once with our reason (and line). */
class Refused extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** Line (1-based) of the character at `offset` of `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line += 1;
  }
  return line;
}

/** The encoding the XML declaration names, read from the first bytes (ASCII in every case we take). */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declaration =
    /^(?:\uFEFF|\u00EF\u00BB\u00BF)?<\?xml\s[^>]*?encoding\s*=\s*["']([^"']+)["']/.exec(head);
  return declaration?.[1]?.toLowerCase();
}

const SINGLE_BYTE = new Set(['iso-8859-1', 'latin1', 'iso_8859-1', 'windows-1252', 'cp1252']);

/**
 * The file's text, decoded as its XML declaration says: UTF-8 (also when none is named) or, as
 * older German ERPs write it, ISO-8859-1/Windows-1252. Invalid UTF-8, other encodings, and a
 * single-byte declaration over bytes that prove another encoding are refused, never guessed at.
 * The text returned declares UTF-8, as the schema check reads it.
 */
export function xmlText(
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; reason: string } {
  if (bytes[0] === 0xfe || bytes[0] === 0xff || bytes[0] === 0x00) {
    return { ok: false, reason: 'the file is UTF-16 or UTF-32; save it as UTF-8' };
  }
  const encoding = declaredEncoding(bytes) ?? 'utf-8';
  if (SINGLE_BYTE.has(encoding)) {
    const wrong = notWindows1252(bytes);
    if (wrong !== undefined) {
      const declared = encoding.toUpperCase();
      return {
        ok: false,
        reason: wrong.utf8
          ? `the XML declaration names ${declared}, but the file is UTF-8 (its umlauts would be read wrong; first at offset ${wrong.offset}): declare encoding="UTF-8", or export the file in ${declared}`
          : `the XML declaration names ${declared}, but byte 0x${wrong.byte.toString(16)} at offset ${wrong.offset} is no character of it: check the ERP's export encoding`,
      };
    }
    const text = decodeWindows1252(bytes).replace(
      /^(<\?xml\s[^>]*?encoding\s*=\s*)["'][^"']+["']/,
      '$1"UTF-8"',
    );
    return { ok: true, text };
  }
  if (encoding !== 'utf-8' && encoding !== 'utf8') {
    return {
      ok: false,
      reason: `the XML declaration names the encoding "${encoding}"; save the file as UTF-8 (or ISO-8859-1)`,
    };
  }
  const offset = invalidUtf8Offset(bytes);
  if (offset !== undefined) {
    return {
      ok: false,
      reason: `the file is not valid UTF-8 (first bad byte at offset ${offset}), as its XML declaration says`,
    };
  }
  return { ok: true, text: new TextDecoder('utf-8').decode(bytes) };
}

const DOCTYPE_REFUSED =
  'the file has a DOCTYPE; document type declarations are refused (no entity is expanded, no ' +
  'DTD or other file is read): write the file without one';

/** saxes prefixes its messages with `line:column: `; the position is reported apart. */
const withoutPosition = (message: string) => message.replace(/^\d+:\d+:\s*/, '');

/** Parses `text` into a tree of elements, or says why not and where. */
export function readXml(text: string): XmlRead {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  let elements = 0;

  // saxes tells of a DOCTYPE once it has read all of it (as text: it declares, expands and
  // fetches nothing); the report names the line where it starts, which a person looks for.
  parser.on('doctype', () => {
    const start = text.lastIndexOf('<!DOCTYPE', parser.position);
    throw new Refused(DOCTYPE_REFUSED, start === -1 ? undefined : lineAt(text, start));
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    elements += 1;
    if (elements > MAX_XML_ELEMENTS) {
      throw new Refused(`the file has more than ${MAX_XML_ELEMENTS} elements`);
    }
    if (open.length >= MAX_NESTING) {
      throw new Refused(`elements nest deeper than ${MAX_NESTING} levels`);
    }
    const names = Object.keys(tag.attributes);
    if (names.length > MAX_OBJECT_KEYS) {
      throw new Refused(`<${tag.name}> has more than ${MAX_OBJECT_KEYS} attributes`);
    }
    const element: XmlElement = {
      name: tag.local,
      namespace: tag.uri,
      attributes: new Map(names.map((name) => [name, tag.attributes[name]?.value ?? ''])),
      children: [],
      text: '',
      line: parser.line,
    };
    const parent = open.at(-1);
    if (parent === undefined) root = element;
    else parent.children.push(element);
    open.push(element);
  });
  parser.on('closetag', () => {
    open.pop();
  });
  const addText = (chunk: string) => {
    const current = open.at(-1);
    if (current !== undefined) current.text += chunk;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);

  try {
    parser.write(text).close();
  } catch (error) {
    const where = { line: parser.line, column: parser.column + 1 };
    if (error instanceof Refused) {
      return { ok: false, reason: error.message, ...where, line: error.line ?? where.line };
    }
    const message = error instanceof Error ? withoutPosition(error.message) : String(error);
    return { ok: false, reason: `not well-formed XML: ${message}`, ...where };
  }
  // saxes refuses a document without a root element; the test only tells the type so.
  return root === undefined
    ? { ok: false, reason: 'the file holds no element' }
    : { ok: true, root };
}

/** The children of `element` named `name` (any namespace: the schema check fixed them). */
export const childrenNamed = (element: XmlElement, name: string): XmlElement[] =>
  element.children.filter((child) => child.name === name);

export const childNamed = (element: XmlElement, name: string): XmlElement | undefined =>
  element.children.find((child) => child.name === name);

/** The trimmed text of the element at `path` below `element`, or undefined when absent or blank. */
export function textAt(element: XmlElement, ...path: string[]): string | undefined {
  let current: XmlElement | undefined = element;
  for (const name of path) current = current && childNamed(current, name);
  const value = current?.text.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** An element with the path that names it in a problem (`Auftraege/Auftrag[2]/Status`). */
export interface Located {
  element: XmlElement;
  path: string;
}

/** The children named `name`, each with its path (indexed when there are several). */
export function located(parent: Located, name: string): Located[] {
  const found = childrenNamed(parent.element, name);
  return found.map((element, index) => ({
    element,
    path: `${parent.path}/${name}${found.length > 1 ? `[${index + 1}]` : ''}`,
  }));
}

/** The first child named `name`, with its path. */
export function locatedChild(parent: Located, name: string): Located | undefined {
  const element = childNamed(parent.element, name);
  return element && { element, path: `${parent.path}/${name}` };
}

/**
 * An XML file's element tree and its text (declaring UTF-8), or why it is refused; `what` names
 * such a file in the refusal of one too large (`an openTRANS file`).
 */
export function readXmlFile(
  bytes: Uint8Array,
  what: string,
):
  | { ok: true; root: XmlElement; text: string }
  | { ok: false; reason: string; problems: Problem[] } {
  if (bytes.length > MAX_XML_BYTES) {
    const reason = `the file has ${bytes.length} bytes; ${what} may have ${MAX_XML_BYTES}`;
    return { ok: false, reason, problems: [] };
  }
  const decoded = xmlText(bytes);
  if (!decoded.ok) return { ok: false, reason: decoded.reason, problems: [] };
  const parsed = readXml(decoded.text);
  if (parsed.ok) return { ok: true, root: parsed.root, text: decoded.text };
  const where = parsed.line === undefined ? {} : { line: parsed.line };
  return {
    ok: false,
    reason: 'not readable as XML',
    problems: [{ ...where, message: parsed.reason }],
  };
}
