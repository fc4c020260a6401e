import type { ResourceName } from '../../contract/index.js';
import {
  nestedObject,
  outboundMapping,
  rowObjects,
  type OutboundMapping,
  type OutboundMappingSpec,
} from '../mapping/index.js';
import type { WriteOptions } from './format.js';

/** Built once per configured mapping (the options' objects live as long as the adapter). */
const compiled = new WeakMap<OutboundMappingSpec, OutboundMapping>();

/**
 * The resource's mapping (`erp.file.mapping.<resource>`) ready to apply, or undefined when the
 * config gives none and the format's own layout stays. CSV writes lines as rows by default,
 * the other formats nested.
 */
export function mappingOf(
  resource: ResourceName,
  options: WriteOptions,
): OutboundMapping | undefined {
  const spec = options.mapping[resource];
  if (spec === undefined) return undefined;
  let mapping = compiled.get(spec);
  if (mapping === undefined) {
    const context = { tables: options.valueTables, timeZone: options.csv.timeZone };
    const lines = options.format === 'csv' ? 'rows' : 'nested';
    mapping = outboundMapping(resource, spec, context, lines);
    compiled.set(spec, mapping);
  }
  return mapping;
}

/**
 * What a JSON, NDJSON or XML file holds for one record: without a mapping the record itself,
 * with one its rows, or the record nested.
 */
export function mappedObjects(
  mapping: OutboundMapping | undefined,
  record: Record<string, unknown>,
): unknown[] {
  if (mapping === undefined) return [record];
  return mapping.lines === 'rows' ? rowObjects(mapping, record) : [nestedObject(mapping, record)];
}
