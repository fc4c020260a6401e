import type * as Xmlbuilder2 from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import { lazyPackage } from '../../../shared/lazyPackage.js';
import { textOf } from '../../../shared/decimals.js';
import { isPlainObject } from '../../../shared/objects.js';
import { firstFile } from '../format.js';
import { mappedWrite } from '../outboundMapping.js';

/** xmlbuilder2 (about a hundred modules) is loaded only when a config writes XML. */
export const xmlbuilder = lazyPackage<typeof Xmlbuilder2>('xmlbuilder2');

/** Characters XML 1.0 cannot carry are replaced, not dropped, so the reader sees something was. */
export const XML_OPTIONS = { version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' };

/**
 * A JSON key as an XML element name: characters outside [A-Za-z0-9_.-] become `_`, and a name
 * that would start with a digit, `-`, `.` or `xml` gets a leading `_`.
 */
export function xmlName(key: string): string {
  const replaced = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  if (replaced === '') return '_';
  return /^[A-Za-z_]/.test(replaced) && !/^xml/i.test(replaced) ? replaced : `_${replaced}`;
}

/** null and absent values are left out; arrays become repeated elements of the same name. */
function append(parent: XMLBuilder, name: string, value: unknown): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) append(parent, name, item);
    return;
  }
  if (isPlainObject(value)) {
    const element = parent.ele(name);
    for (const [key, child] of Object.entries(value)) append(element, xmlName(key), child);
    return;
  }
  // Numbers in plain notation (`1e21` as its 22 digits), as XML Schema's decimals read them.
  parent.ele(name).txt(textOf(value));
}

/**
 * A record's file, a well-formed XML document: the record as it is, its root element the
 * resource's name; with a mapping (`erp.file.mapping.<resource>`) in the ERP's layout, under the
 * mapping's root.
 */
export const xmlFile = mappedWrite(({ objects: [record = {}], root: name }) => {
  const root = xmlbuilder().create(XML_OPTIONS).ele(xmlName(name));
  const fields = Object.entries(record as Record<string, unknown>);
  for (const [key, value] of fields) append(root, xmlName(key), value);
  return [Buffer.from(root.end({ prettyPrint: true }), 'utf8')];
}, firstFile);
