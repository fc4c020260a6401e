import type { ResourceName } from '../../contract/index.js';
import {
  nestedObject,
  outboundMapping,
  rowObjects,
  type OutboundMapping,
  type OutboundMappingSpec,
} from '../mapping/index.js';
import { writeEach, type WriteOptions, type Written } from './format.js';

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

/** What a record is in a file of objects (JSON, NDJSON, XML): itself, or its mapping's objects. */
export type Mapped = { objects: unknown[]; rows: boolean; root: string };

/**
 * The write of a format of objects: each record as the resource's mapping makes it (without
 * one the record itself; with one its rows, or the record nested), rendered into its parts (a
 * document, lines), and the parts of the records the layout can say joined into the file.
 */
export function mappedWrite<T>(render: (record: Mapped) => T[], join: (parts: T[]) => Buffer) {
  return (
    resource: ResourceName,
    records: readonly Record<string, unknown>[],
    options: WriteOptions,
  ): Written => {
    const mapping = mappingOf(resource, options);
    const rows = mapping?.lines === 'rows';
    const objectsOf = (record: Record<string, unknown>): unknown[] => {
      if (mapping === undefined) return [record];
      return rows ? rowObjects(mapping, record) : [nestedObject(mapping, record)];
    };
    const root = mapping?.root ?? resource;
    return writeEach(records, (record) => render({ objects: objectsOf(record), rows, root }), join);
  };
}
