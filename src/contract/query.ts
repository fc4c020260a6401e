/** How a query parameter's value must look. */
export type ParamType =
  | { type: 'datetime' }
  | { type: 'uuid' }
  | { type: 'string' }
  | { type: 'boolean' }
  | { type: 'enum'; values: readonly string[] };

/**
 * The query rule of one operation in one variant.
 * - `params`: the parameters the spec names (and the `guessed` ones it does not).
 * - `required`: each must be present.
 * - `oneOf`: at least one of `names` must be present; with `exactlyOne`, never several.
 * - `extra`: `refuse` where the spec forbids other parameters (or all query parameters),
 *   `ignore` where it is silent.
 */
export interface QueryRule {
  params: Readonly<Record<string, ParamType>>;
  /** Parameters the spec does not show that we send anyway; a platform may refuse them. */
  guessed?: readonly string[];
  required?: readonly string[];
  oneOf?: { names: readonly string[]; exactlyOne: boolean };
  extra: 'refuse' | 'ignore';
}

export const datetime: ParamType = { type: 'datetime' };
export const uuid: ParamType = { type: 'uuid' };
export const text: ParamType = { type: 'string' };
export const bool: ParamType = { type: 'boolean' };
export const oneOfValues = (...values: string[]): ParamType => ({ type: 'enum', values });

/** No query parameter at all is allowed (spec: "No query parameters"). */
export const NO_QUERY: QueryRule = { params: {}, extra: 'refuse' };
/** The spec shows none; we accept none we know and let others pass. */
export const OPEN_QUERY: QueryRule = { params: {}, extra: 'ignore' };

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The spec's "ISO 8601 date-time": a real moment with its time zone, so two systems read it
 * alike. One test for query parameters and body fields typed date-time.
 */
export function isIsoDateTime(value: string): boolean {
  return ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value));
}

function valueProblem(name: string, value: string, type: ParamType): string | undefined {
  switch (type.type) {
    case 'datetime':
      return isIsoDateTime(value)
        ? undefined
        : `query parameter ${name} must be an ISO 8601 date-time, got "${value}"`;
    case 'uuid':
      return UUID.test(value)
        ? undefined
        : `query parameter ${name} must be a UUID, got "${value}"`;
    case 'boolean':
      return value === 'true' || value === 'false'
        ? undefined
        : `query parameter ${name} must be true or false, got "${value}"`;
    case 'enum':
      return type.values.includes(value)
        ? undefined
        : `query parameter ${name} must be one of ${type.values.join(', ')}, got "${value}"`;
    case 'string':
      return undefined;
  }
}

/**
 * Every way `query` breaks `rule`, as sentences that name the parameter. Empty when it keeps it.
 * Used by the client before it sends and by the simulator when it answers.
 */
export function queryProblems(
  rule: QueryRule,
  query: Readonly<Record<string, string | undefined>>,
): string[] {
  const given = Object.keys(query).filter((name) => query[name] !== undefined);
  const problems: string[] = [];
  for (const name of rule.required ?? []) {
    if (!given.includes(name)) problems.push(`query parameter ${name} is required`);
  }
  if (rule.oneOf) {
    const present = rule.oneOf.names.filter((name) => given.includes(name));
    const names = rule.oneOf.names.join(', ');
    if (present.length === 0) problems.push(`one of the query parameters ${names} is required`);
    if (rule.oneOf.exactlyOne && present.length > 1) {
      problems.push(
        `only one of the query parameters ${names} may be given, got ${present.join(' and ')}`,
      );
    }
  }
  for (const name of given) {
    const type = rule.params[name];
    if (type === undefined) {
      if (rule.extra === 'refuse') problems.push(`query parameter ${name} is not allowed here`);
      continue;
    }
    const problem = valueProblem(name, query[name] ?? '', type);
    if (problem) problems.push(problem);
  }
  return problems;
}
