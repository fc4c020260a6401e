import type { InboundMapping, InField, InputLine, InputRecord } from '../../mapping/index.js';
import type { Problem } from '../../messages/problems.js';
import { childrenNamed, located, readXmlFile, type Located, type XmlElement } from './parse.js';
import { refusedFile, type FileMessages, type InboxFile, type ReadContext } from '../format.js';
import { mappedMessages, type Records } from '../rows.js';

const steps = (path: string): string[] =>
  path === '.' ? [] : path.split('/').filter((step) => step !== '');

/** Every element at `path` below `from` (by local name; `.` is `from` itself), in file order. */
function elementsAt(from: Located, path: string): Located[] {
  let found = [from];
  for (const name of steps(path)) {
    found = found.flatMap((parent) => located(parent, name));
  }
  return found;
}

interface XmlCell {
  text: string | undefined;
  where: Located;
  /** An element on the way stands more than once: the field cannot tell which it reads. */
  problem?: string;
}

/** The text at `from` below `at`: an element's text, or `@name` an attribute's value. */
function cellAt(at: Located, field: InField): XmlCell {
  const from = field.spec.from;
  if (typeof from !== 'string') return { text: undefined, where: at };
  const parts = steps(from);
  const last = parts.at(-1);
  const attribute = last?.startsWith('@') === true ? last.slice(1) : undefined;
  let current = at;
  for (const name of attribute === undefined ? parts : parts.slice(0, -1)) {
    const [child, ...more] = childrenNamed(current.element, name);
    if (child === undefined) return { text: undefined, where: at };
    current = { element: child, path: `${current.path}/${name}` };
    if (more.length > 0) {
      const problem = `${name} is there ${more.length + 1} times; a field reads one element: which one is meant cannot be told`;
      return { text: undefined, where: current, problem };
    }
  }
  const text =
    attribute === undefined ? current.element.text : current.element.attributes.get(attribute);
  return { text, where: current };
}

function inputOf(at: Located): InputLine {
  const where = { line: at.element.line, element: at.path };
  return {
    where,
    cell(field) {
      const { text, where: found, problem } = cellAt(at, field);
      return { text, where: { line: found.element.line, element: found.path }, problem };
    },
  };
}

/**
 * Elements in a namespace other than the root element's (or none): a field names elements
 * without their namespace, so such an element would be read as the file's own (`<x:Status>` as
 * `Status`). Each is a problem of the file, by line and path.
 */
function foreignElements(root: XmlElement): Problem[] {
  const problems: Problem[] = [];
  const known = (namespace: string) => namespace === root.namespace || namespace === '';
  const shown = root.namespace === '' ? 'none' : root.namespace;
  const walk = (element: XmlElement, path: string): void => {
    const counts = new Map<string, number>();
    for (const child of element.children) counts.set(child.name, (counts.get(child.name) ?? 0) + 1);
    const seen = new Map<string, number>();
    for (const child of element.children) {
      const nth = (seen.get(child.name) ?? 0) + 1;
      seen.set(child.name, nth);
      const index = (counts.get(child.name) ?? 0) > 1 ? `[${nth}]` : '';
      const at = `${path}/${child.name}${index}`;
      if (!known(child.namespace)) {
        problems.push({
          line: child.line,
          element: at,
          message: `the element ${child.name} is in the namespace ${child.namespace}, which is not the file's (${shown}): elements of other namespaces are refused, not read`,
        });
      } else walk(child, at);
    }
  };
  walk(root, root.name);
  return problems;
}

/**
 * The records of a mapped XML file: each element at `records` below the root is one message,
 * each at `lines` below a record one of its lines. Fields name elements by path below their
 * record or line (`Kopf/Belegnr`), attributes as `@name`.
 */
function xmlRecords(root: XmlElement, records: string, lines: string | undefined): InputRecord[] {
  return elementsAt({ element: root, path: root.name }, records).map((record) => ({
    ...inputOf(record),
    lines: lines === undefined ? [] : elementsAt(record, lines).map(inputOf),
  }));
}

/** The records of an XML file, read only through parse.ts (no DOCTYPE, no entity, bounded). */
function xmlFileRecords(bytes: Uint8Array, mapping: InboundMapping): Records {
  const read = readXmlFile(bytes, 'an XML file');
  if (!read.ok) return read;
  const foreign = foreignElements(read.root);
  if (foreign.length > 0) {
    return { ok: false, reason: 'the file has elements of other namespaces', problems: foreign };
  }
  const { records = '.', lines } = mapping.spec;
  const found = xmlRecords(read.root, records, lines);
  if (found.length === 0) {
    const reason = `no ${records} element below the root element ${read.root.name}, where the mapping's records are`;
    return { ok: false, reason, problems: [] };
  }
  return { ok: true, records: found, badRows: [] };
}

/** The messages of an XML file in the layout of its kind's mapping (`format: xml`). */
export function xmlMessages(bytes: Uint8Array, file: InboxFile, ctx: ReadContext): FileMessages {
  const mapping = ctx.mappings?.get(file.folder);
  if (mapping?.spec.format !== 'xml') {
    return refusedFile(`${file.folder} has no XML layout: give it one in erp.file.inboxMapping`);
  }
  return mappedMessages(xmlFileRecords(bytes, mapping), file, mapping, ctx);
}
