import type { ResourceName } from '../../../contract/index.js';
import { writeEach, type WriteOptions, type Written } from '../format.js';
import { mappedObjects, mappingOf } from '../outboundMapping.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/**
 * A record's file, pretty-printed; with a mapping (`erp.file.mapping.<resource>`) the record in
 * the ERP's layout: its rows as a list when the mapping writes lines as rows.
 */
export function jsonFile(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  options: WriteOptions,
): Written {
  const mapping = mappingOf(resource, options);
  return writeEach(
    records,
    (record) => [mappedObjects(mapping, record)],
    ([objects]) => {
      const content = mapping?.lines === 'rows' ? objects : objects?.[0];
      return utf8(`${JSON.stringify(content, null, 2)}\n`);
    },
  );
}

/** A batch file: one record (with a mapping: one object or row) per line. */
export function ndjsonFile(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  options: WriteOptions,
): Written {
  const mapping = mappingOf(resource, options);
  return writeEach(
    records,
    (record) => mappedObjects(mapping, record),
    (lines) => utf8(lines.map((line) => `${JSON.stringify(line)}\n`).join('')),
  );
}
