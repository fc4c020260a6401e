import {
  bodyProblems,
  fillPath,
  OPERATIONS,
  queryProblems,
  type BoundOperation,
  type Contract,
  type HttpMethod,
  type OperationKind,
  type ResourceName,
} from '../contract/index.js';
import { PermanentError } from '../shared/errors.js';
import type { RequestContext } from './errors.js';

export type QueryValue = string | number | boolean | Date | undefined;
export type Query = Readonly<Record<string, QueryValue>>;

/** What a caller hands to `send`: the id of an item path, the query, the JSON body. */
export interface SendRequest {
  id?: string;
  query?: Query;
  body?: unknown;
}

/** A request that keeps the contract, ready for the wire. */
export interface PreparedRequest {
  context: RequestContext;
  operation: BoundOperation;
  method: HttpMethod;
  /** Path below the base URL, with the id filled in and the query string appended. */
  path: string;
  body: string | undefined;
}

const WRITES: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];

function toQueryStrings(query: Query): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    strings[name] = value instanceof Date ? value.toISOString() : String(value);
  }
  return strings;
}

function refusal(context: RequestContext, variant: string, problems: readonly string[]) {
  const hint =
    'the platform contract forbids this request, so it was not sent; fix the caller or the record';
  return new PermanentError(
    `Refused ${context.label} (${context.resource}${context.id === undefined ? '' : ` ${context.id}`}) in platform variant ${variant}: ${problems.join('; ')}; ${hint}`,
    {
      resource: context.resource,
      ...(context.id === undefined ? {} : { id: context.id }),
      code: 'CONTRACT_REFUSAL',
      hint,
    },
  );
}

function missingOperation(contract: Contract, resource: ResourceName, kind: OperationKind) {
  const known = OPERATIONS.find((o) => o.resource === resource && o.kind === kind);
  const offering = contract.variantsOffering(resource, kind);
  const label = `${known?.method ?? kind} ${contract.collectionPath(resource)}`;
  const elsewhere =
    offering.length === 0
      ? 'no variant offers it'
      : `only variant${offering.length > 1 ? 's' : ''} ${offering.join(' and ')} offer${offering.length > 1 ? '' : 's'} it`;
  return {
    label,
    problem: `variant ${contract.variant} has no ${kind} of ${resource}; ${elsewhere}`,
  };
}

function idProblems(operation: BoundOperation, id: string | undefined): string[] {
  const itemPath = operation.pathTemplate.includes('{id}');
  if (itemPath && (id === undefined || id === '')) {
    return [
      `the path needs the ${operation.detail.idKind ?? 'id'} of the record, and none was given`,
    ];
  }
  if (!itemPath && id !== undefined) return ['this path takes no id'];
  return [];
}

function bodyProblemsFor(operation: BoundOperation, body: unknown): string[] {
  if (WRITES.includes(operation.method)) return bodyProblems(operation.detail.body, body);
  return body === undefined ? [] : [`${operation.method} takes no request body`];
}

/**
 * Finds `resource`'s `kind` in the contract and checks the request against every rule the
 * contract states. Throws a PermanentError `CONTRACT_REFUSAL` naming each broken rule; nothing
 * is sent in that case.
 */
export function prepare(
  contract: Contract,
  secret: string,
  resource: ResourceName,
  kind: OperationKind,
  request: SendRequest,
): PreparedRequest {
  const { id, query = {}, body } = request;
  const operation = contract.find(resource, kind);
  if (operation === undefined) {
    const { label, problem } = missingOperation(contract, resource, kind);
    throw refusal({ label, resource, id, secret }, contract.variant, [problem]);
  }
  const context: RequestContext = {
    label: `${operation.method} ${operation.pathTemplate}`,
    resource,
    id,
    secret,
  };
  const strings = toQueryStrings(query);
  const problems = [
    ...idProblems(operation, id),
    ...queryProblems(operation.detail.query, strings),
    ...bodyProblemsFor(operation, body),
  ];
  if (problems.length > 0) throw refusal(context, contract.variant, problems);
  const search = new URLSearchParams(strings).toString();
  const filled = id === undefined ? operation.pathTemplate : fillPath(operation.pathTemplate, id);
  return {
    context,
    operation,
    method: operation.method,
    path: search === '' ? filled : `${filled}?${search}`,
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}
