import {
  OPERATIONS,
  type Operation,
  type OperationDetail,
  type OperationKind,
} from './operations.js';
import { DEFAULT_READINGS, type ContractReadings } from './readings.js';
import { DEFAULT_OPEN_PATHS, RESOURCES, type OpenPaths, type ResourceName } from './resources.js';
import type { Variant } from './variants.js';

/** An operation as it exists in one variant, with its concrete path template. */
export interface BoundOperation extends Operation {
  detail: OperationDetail;
  /** e.g. `/singleOrder/{id}`; `{id}` only on item paths. */
  pathTemplate: string;
}

/** The contract of one variant, with the open paths resolved: what client and simulator read. */
export interface Contract {
  variant: Variant;
  operations: readonly BoundOperation[];
  /** How the operator reads what the spec leaves open (config `ack.*`). */
  readings: ContractReadings;
  find(resource: ResourceName, kind: OperationKind): BoundOperation | undefined;
  collectionPath(resource: ResourceName): string;
  /** The variants that offer `resource`'s `kind`, for messages such as "only in A and B". */
  variantsOffering(resource: ResourceName, kind: OperationKind): Variant[];
}

export function collectionPathOf(resource: ResourceName, paths: Partial<OpenPaths> = {}): string {
  const entry: { path: string; pathKey?: string } = RESOURCES[resource];
  if (entry.pathKey === 'postalCode') return paths.postalCode ?? DEFAULT_OPEN_PATHS.postalCode;
  return entry.path;
}

/** The placeholder of an item's id in a path template (`/singleOrder/{id}`). */
export const ID_PLACEHOLDER = '{id}';

function pathTemplateOf(operation: Operation, paths: Partial<OpenPaths>): string {
  if (operation.kind === 'download') {
    return paths.attachmentDownload ?? DEFAULT_OPEN_PATHS.attachmentDownload;
  }
  const base = collectionPathOf(operation.resource, paths);
  return operation.target === 'item' ? `${base}/${ID_PLACEHOLDER}` : base;
}

export function contractFor(
  variant: Variant,
  paths: Partial<OpenPaths> = {},
  readings: ContractReadings = DEFAULT_READINGS,
): Contract {
  const operations: BoundOperation[] = [];
  for (const operation of OPERATIONS) {
    const detail = operation.variants[variant];
    if (detail)
      operations.push({ ...operation, detail, pathTemplate: pathTemplateOf(operation, paths) });
  }
  return {
    variant,
    operations,
    readings,
    find: (resource, kind) => operations.find((o) => o.resource === resource && o.kind === kind),
    collectionPath: (resource) => collectionPathOf(resource, paths),
    variantsOffering: (resource, kind) => variantsOffering(resource, kind),
  };
}

export function variantsOffering(resource: ResourceName, kind: OperationKind): Variant[] {
  const operation = OPERATIONS.find((o) => o.resource === resource && o.kind === kind);
  return operation ? (Object.keys(operation.variants) as Variant[]).sort() : [];
}

/**
 * The status filter values a variant's list of `resource` takes: a resource's filter applies
 * only where that variant's list operation has the filter as a parameter (article only in B,
 * users only in C).
 */
export function listStatusFilters(operation: BoundOperation): readonly string[] {
  const param = operation.detail.query.params['status'];
  return param?.type === 'enum' ? param.values : [];
}

/** Fills `{id}` of a path template, encoded. */
export function fillPath(template: string, id: string): string {
  return template.replace(ID_PLACEHOLDER, encodeURIComponent(id));
}
