import type { InField, InputLine, InputRecord } from '../mapping/index.js';
import { childNamed, type XmlElement } from './safeXml.js';

/** An element with the path that names it in a problem (`Rueckmeldungen/Auftrag[2]`). */
interface Located {
  element: XmlElement;
  path: string;
}

const steps = (path: string): string[] =>
  path === '.' ? [] : path.split('/').filter((step) => step !== '');

/** Every element at `path` below `from` (by local name; `.` is `from` itself), in file order. */
function elementsAt(from: Located, path: string): Located[] {
  let found = [from];
  for (const name of steps(path)) {
    found = found.flatMap((parent) => {
      const children = parent.element.children.filter((child) => child.name === name);
      return children.map((element, index) => ({
        element,
        path: `${parent.path}/${name}${children.length > 1 ? `[${index + 1}]` : ''}`,
      }));
    });
  }
  return found;
}

/** The text at `from` below `at`: an element's text, or `@name` an attribute's value. */
function cellAt(at: Located, field: InField): { text: string | undefined; where: Located } {
  const from = field.spec.from;
  if (typeof from !== 'string') return { text: undefined, where: at };
  const parts = steps(from);
  const last = parts.at(-1);
  const attribute = last?.startsWith('@') === true ? last.slice(1) : undefined;
  let current: Located | undefined = at;
  for (const name of attribute === undefined ? parts : parts.slice(0, -1)) {
    const child: XmlElement | undefined = current && childNamed(current.element, name);
    current = child && { element: child, path: `${current?.path ?? ''}/${name}` };
  }
  if (current === undefined) return { text: undefined, where: at };
  const text =
    attribute === undefined ? current.element.text : current.element.attributes.get(attribute);
  return { text, where: current };
}

function inputOf(at: Located): InputLine {
  const where = { line: at.element.line, element: at.path };
  return {
    where,
    cell(field) {
      const cell = cellAt(at, field);
      return {
        text: cell.text,
        where: { line: cell.where.element.line, element: cell.where.path },
      };
    },
  };
}

/**
 * The records of a mapped XML file: each element at `records` below the root is one message,
 * each element at `lines` below a record one of its lines. Fields name elements by path below
 * their record or line (`Kopf/Belegnr`), attributes as `@name`; namespaces do not count.
 */
export function xmlRecords(
  root: XmlElement,
  records: string,
  lines: string | undefined,
): InputRecord[] {
  return elementsAt({ element: root, path: root.name }, records).map((record) => ({
    ...inputOf(record),
    lines: lines === undefined ? [] : elementsAt(record, lines).map(inputOf),
  }));
}
