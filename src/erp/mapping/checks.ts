import type { z } from 'zod';
import { RESOURCE_NAMES, type ResourceName } from '../../contract/index.js';
import { nearestField } from '../../shared/nearest.js';
import { datePatternProblem } from './dates.js';
import { parsePath, resolvePath, type Segment } from './paths.js';
import { linesFieldOf, sourceShape } from './sources.js';
import {
  isOpenTransOrder,
  type OutboundFieldSpec,
  type OutboundMappingSpec,
  type OutboxFormat,
  type Scalar,
  type ValueTables,
} from './spec.js';

/** One thing wrong with a mapping, at a path below its own config key. */
export interface MappingProblem {
  path: Segment[];
  message: string;
}

/** Where `table` is not one of `tables`: the problem, with the nearest name. */
function tableProblem(table: string, tables: ValueTables): string | undefined {
  if (Object.hasOwn(tables, table)) return undefined;
  const names = Object.keys(tables);
  const near = nearestField(table, names);
  const guess = near === undefined ? '' : ` (did you mean ${near}?)`;
  const known = names.length === 0 ? 'none are defined' : `tables: ${names.join(', ')}`;
  return `erp.file.valueTables has no table ${table}${guess}; ${known}`;
}

/** Names JavaScript gives every object: a path through one would reach Object.prototype. */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether a target or source (a dot path, an element path, an `@attribute`) names one. */
export const reachesPrototype = (path: string): boolean =>
  path.split(/[./]/).some((part) => PROTOTYPE_NAMES.has(part.replace(/^@/, '')));

export const PROTOTYPE_PATH =
  'no part of a path may be __proto__, constructor or prototype (names JavaScript gives every object); rename it';

/**
 * What names a record or a thing: `_id`, a field ending in `Id`, `Ids` or `Number`, a parcel's
 * tracking code, a PZN (`pcn`). A width would pad it into another name.
 */
const IDENTIFIER = /^_id$|Ids?$|Number$|^pcn$|^trackingCode$/;

export const isIdentifier = (path: string): boolean =>
  IDENTIFIER.test(path.split('.').at(-1) ?? '');

/**
 * What every field says alike, in both directions: no path through a prototype, one source, a
 * known table, a date pattern.
 */
export function commonFieldProblems(
  target: string,
  field: {
    from?: unknown;
    value?: Scalar | undefined;
    table?: string | undefined;
    date?: string | undefined;
  },
  tables: ValueTables,
): MappingProblem[] {
  const at = (key?: string): Segment[] => ['fields', target, ...(key === undefined ? [] : [key])];
  const problems: MappingProblem[] = [];
  if (reachesPrototype(target)) problems.push({ path: at(), message: PROTOTYPE_PATH });
  if (typeof field.from === 'string' && reachesPrototype(field.from)) {
    problems.push({ path: at('from'), message: PROTOTYPE_PATH });
  }
  if ((field.from === undefined) === (field.value === undefined)) {
    const both = field.from === undefined ? '' : ', not both';
    const message = `give from (where the value comes from) or value (a constant)${both}`;
    problems.push({ path: at(), message });
  }
  const table = field.table === undefined ? undefined : tableProblem(field.table, tables);
  if (table !== undefined) problems.push({ path: at('table'), message: table });
  const date = field.date === undefined ? undefined : datePatternProblem(field.date);
  if (date !== undefined) problems.push({ path: at('date'), message: date });
  return problems;
}

/** An XML element name we write without changing it. */
const XML_NAME = /^(?!xml)[A-Za-z_][A-Za-z0-9_.-]*$/i;

function layoutProblems(
  resource: ResourceName,
  spec: OutboundMappingSpec,
  format: OutboxFormat,
): MappingProblem[] {
  const problems: MappingProblem[] = [];
  const add = (key: string, message: string) => problems.push({ path: [key], message });
  const linesField = linesFieldOf(resource);
  if (format === 'csv' && spec.lines === 'nested') {
    add('lines', 'a CSV file writes one row per order line: set lines: rows, or leave it out');
  }
  if (format === 'xml' && spec.lines === 'rows') {
    add('lines', 'an XML file holds its lines nested: set lines: nested, or leave it out');
  }
  if (spec.root !== undefined && format !== 'xml') {
    add('root', `only format xml has a root element (format is ${format})`);
  }
  if (spec.root !== undefined && !XML_NAME.test(spec.root)) {
    add('root', `${spec.root} is no XML element name`);
  }
  if (spec.linesAs !== undefined && (linesField === undefined || format === 'csv')) {
    const why = linesField === undefined ? `${resource} has no order lines` : 'CSV writes rows';
    add('linesAs', `no list of lines to name: ${why}`);
  }
  return problems;
}

/** Targets that are objects (json, xml) must not also be values: `a` and `a.b`. */
function targetProblems(spec: OutboundMappingSpec, format: OutboxFormat): MappingProblem[] {
  if (format === 'csv') return [];
  const problems: MappingProblem[] = [];
  const targets = Object.keys(spec.fields);
  for (const target of targets) {
    const parts = target.split('.');
    if (parts.some((part) => part === '')) {
      problems.push({ path: ['fields', target], message: 'a target path has no empty parts' });
    } else if (format === 'xml' && !parts.every((part) => XML_NAME.test(part))) {
      const bad = parts.find((part) => !XML_NAME.test(part)) ?? '';
      problems.push({ path: ['fields', target], message: `${bad} is no XML element name` });
    }
    const holder = targets.find((other) => target.startsWith(`${other}.`));
    if (holder !== undefined) {
      const message = `${holder} is a value of its own, so it cannot hold ${target}; rename one of them`;
      problems.push({ path: ['fields', target], message });
    }
  }
  return problems;
}

function outboundFieldProblems(
  resource: ResourceName,
  target: string,
  field: OutboundFieldSpec,
  tables: ValueTables,
): MappingProblem[] {
  const problems = commonFieldProblems(target, field, tables);
  const add = (key: string, message: string) =>
    problems.push({ path: ['fields', target, key], message });
  if (field.from !== undefined && !reachesPrototype(field.from)) {
    const path = parsePath(field.from);
    const resolved = resolvePath(sourceShape(resource), path, linesFieldOf(resource));
    if (!resolved.ok) add('from', `${resource}: ${resolved.message}`);
  }
  if (field.width === undefined && (field.pad !== undefined || field.align !== undefined)) {
    add('width', 'pad and align need a width');
  }
  if (field.width !== undefined && field.from !== undefined && isIdentifier(field.from)) {
    const why = 'a width would pad it into another one (and a longer one is refused, never cut)';
    add('width', `${field.from} is an identifier: ${why}; remove width`);
  }
  return problems;
}

/**
 * Every problem of `erp.file.mapping.<resource>` for files in `format`: sources the resource
 * cannot have (with the nearest field), unknown tables, date patterns, layouts the format
 * cannot write.
 */
export function outboundProblems(
  resource: ResourceName,
  spec: OutboundMappingSpec,
  format: OutboxFormat,
  tables: ValueTables,
): MappingProblem[] {
  return [
    ...layoutProblems(resource, spec, format),
    ...targetProblems(spec, format),
    ...Object.entries(spec.fields).flatMap(([target, field]) =>
      outboundFieldProblems(resource, target, field, tables),
    ),
  ];
}

/** What `erp.file` says that its outbound mappings are checked against. */
interface FileMappings {
  format: OutboxFormat;
  openTrans: boolean;
  mapping: Partial<Record<ResourceName, OutboundMappingSpec | undefined>>;
  valueTables: ValueTables;
  csv: { columns: Partial<Record<ResourceName, readonly string[] | undefined>> };
}

/**
 * `erp.file.mapping.<resource>` against the resource's schema, the value tables and the format;
 * a mapping beside another layout for the same resource (openTRANS, `csv.columns`) is refused,
 * so one config never says two things of one file.
 */
export function fileMappingChecks(file: FileMappings, ctx: z.RefinementCtx): void {
  for (const resource of RESOURCE_NAMES) {
    const spec = file.mapping[resource];
    if (spec === undefined) continue;
    const problems: MappingProblem[] = [];
    if (file.format === 'xml' && file.openTrans && isOpenTransOrder(resource)) {
      const message = `openTrans writes ${resource} as openTRANS ORDER documents; remove this mapping or set openTrans: false`;
      problems.push({ path: [], message });
    }
    if (file.csv.columns[resource] !== undefined) {
      const message = `csv.columns.${resource} chooses the columns too; keep one of them (a mapping can name the same columns)`;
      problems.push({ path: [], message });
    }
    problems.push(...outboundProblems(resource, spec, file.format, file.valueTables));
    for (const { path, message } of problems) {
      ctx.addIssue({ code: 'custom', path: ['mapping', resource, ...path], message });
    }
  }
}
