import type { ResourceName } from '../../contract/index.js';
import {
  nestedObject,
  outboundMapping,
  rowObjects,
  type OutboundMapping,
  type OutboundMappingSpec,
} from '../mapping/index.js';
import type { FileAdapterOptions } from '../outbound/file/options.js';

/** Built once per configured mapping (the options' objects live as long as the adapter). */
const compiled = new WeakMap<OutboundMappingSpec, OutboundMapping>();

/**
 * The resource's mapping (`erp.file.mapping.<resource>`) ready to apply, or undefined when the
 * config gives none and the format's own layout stays. CSV writes lines as rows by default,
 * the other formats nested.
 */
export function mappingOf(
  resource: ResourceName,
  options: FileAdapterOptions,
): OutboundMapping | undefined {
  const spec = options.mapping[resource];
  if (spec === undefined) return undefined;
  let mapping = compiled.get(spec);
  if (mapping === undefined) {
    const context = { tables: options.valueTables, timeZone: options.csv.timeZone };
    mapping = outboundMapping(
      resource,
      spec,
      context,
      options.format === 'csv' ? 'rows' : 'nested',
    );
    compiled.set(spec, mapping);
  }
  return mapping;
}

/** What a JSON, NDJSON or XML file holds for one record: its rows, or the record nested. */
export function mappedObjects(
  mapping: OutboundMapping,
  record: Record<string, unknown>,
): unknown[] {
  return mapping.lines === 'rows' ? rowObjects(mapping, record) : [nestedObject(mapping, record)];
}
