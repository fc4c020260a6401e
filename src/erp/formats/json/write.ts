import { mappedWrite } from '../outboundMapping.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/**
 * A record's file, pretty-printed; with a mapping (`erp.file.mapping.<resource>`) the record in
 * the ERP's layout: its rows as a list when the mapping writes lines as rows.
 */
export const jsonFile = mappedWrite(
  ({ objects, rows }) => [rows ? objects : objects[0]],
  ([content]) => utf8(`${JSON.stringify(content, null, 2)}\n`),
);

/** A batch file: one record (with a mapping: one object or row) per line. */
export const ndjsonFile = mappedWrite(
  ({ objects }) => objects,
  (lines) => utf8(lines.map((line) => `${JSON.stringify(line)}\n`).join('')),
);
