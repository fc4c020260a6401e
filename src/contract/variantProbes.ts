import { contractFor, ID_PLACEHOLDER, type BoundOperation, type Contract } from './contract.js';
import type { QueryRule } from './query.js';
import type { OpenPaths, ResourceName } from './resources.js';
import { VARIANTS, type Variant } from './variants.js';

/**
 * How a platform answers a GET, as far as it tells the variants apart: `served` (the path takes
 * GET: a 2xx, or a 4xx about the request or the key's rights rather than the path), `notAllowed`
 * (405: the path takes other methods only), `notFound` (404: no such path, or no record of the
 * probe's id). Assumes the platform answers 404 and 405 as HTTP means them; the spec shows no
 * status codes but 403.
 */
export type ProbeAnswer = 'served' | 'notAllowed' | 'notFound';

/** One read-only request whose answer differs between the variants. */
export interface VariantProbe {
  /** The resource whose path it is, to name it in messages. */
  resource: ResourceName;
  /** Below the base URL, with its query; always sent as GET. */
  path: string;
  expected: Readonly<Record<Variant, ProbeAnswer>>;
}

/** The id of an item probe: a well-formed UUID v4 no record has. */
export const PROBE_ID = '00000000-0000-4000-8000-000000000000';

const segments = (path: string) => path.split('/').filter((s) => s.length > 0);

function shapeMatches(template: string, path: string): boolean {
  const want = segments(template);
  const got = segments(path);
  return want.length === got.length && want.every((s, i) => s === ID_PLACEHOLDER || s === got[i]);
}

/**
 * What `contract` answers a GET of the concrete `path`: the operations of the most literal
 * template that matches it decide (`/patient/customerMapping` before `/patient/{id}`).
 */
function answerOf(contract: Contract, path: string): ProbeAnswer {
  const matching = contract.operations.filter((o) => shapeMatches(o.pathTemplate, path));
  if (matching.length === 0) return 'notFound';
  const literal = (o: BoundOperation) =>
    segments(o.pathTemplate).filter((s) => s !== ID_PLACEHOLDER).length;
  const best = Math.max(...matching.map(literal));
  const top = matching.filter((o) => literal(o) === best);
  const read = top.find((o) => o.method === 'GET');
  if (read === undefined) return 'notAllowed';
  // An item read answers 404 for the probe's id, which no record has.
  return read.pathTemplate.includes(ID_PLACEHOLDER) ? 'notFound' : 'served';
}

const TIME_PARAMS = ['updatedAfter', 'createdAfter'];

/**
 * The narrowest query a list rule accepts: its required parameters, one of its alternatives,
 * and a time parameter at `at` (so the list is short), never a page size (no variant has one).
 */
export function narrowListQuery(rule: QueryRule, at: Date): Record<string, string> {
  const names = new Set(rule.required ?? []);
  const alternatives = rule.oneOf?.names ?? [];
  const alternative = alternatives.find((n) => TIME_PARAMS.includes(n)) ?? alternatives[0];
  if (alternative !== undefined) names.add(alternative);
  const time = TIME_PARAMS.find((n) => n in rule.params);
  if (time !== undefined && ![...names].some((n) => TIME_PARAMS.includes(n))) names.add(time);
  const query: Record<string, string> = {};
  for (const name of names) {
    const type = rule.params[name];
    if (type?.type === 'enum') query[name] = type.values[0] ?? '';
    else if (type?.type === 'datetime') query[name] = at.toISOString();
    else if (type?.type === 'uuid') query[name] = PROBE_ID;
    else query[name] = '';
  }
  return query;
}

/** The query of a collection probe: what each variant's list there demands, together. */
function probeQuery(contracts: readonly Contract[], template: string, at: Date): string {
  const query: Record<string, string> = {};
  for (const contract of contracts) {
    const list = contract.operations.find((o) => o.kind === 'list' && o.pathTemplate === template);
    if (list !== undefined) Object.assign(query, narrowListQuery(list.detail.query, at));
  }
  const search = new URLSearchParams(query).toString();
  return search === '' ? '' : `?${search}`;
}

/**
 * The GET requests whose answers tell variants A, B and C apart, derived from the contract's
 * methods per variant: every path template of any variant, items with PROBE_ID, kept where the
 * variants' answers differ (a 405 where a path takes only writes, a 404 where a variant lacks
 * it). Lists carry a time parameter at `at`, so what they return is short. No write is among them.
 */
export function variantProbes(at: Date, paths: Partial<OpenPaths> = {}): VariantProbe[] {
  const contracts = VARIANTS.map((variant) => contractFor(variant, paths));
  const templates = new Map<string, ResourceName>();
  for (const contract of contracts) {
    for (const o of contract.operations) templates.set(o.pathTemplate, o.resource);
  }
  const probes: VariantProbe[] = [];
  for (const [template, resource] of [...templates].sort(([a], [b]) => a.localeCompare(b))) {
    const path = template.replace(ID_PLACEHOLDER, PROBE_ID);
    const expected = Object.fromEntries(
      contracts.map((c) => [c.variant, answerOf(c, path)]),
    ) as Record<Variant, ProbeAnswer>;
    if (new Set(Object.values(expected)).size === 1) continue;
    const query = template.includes(ID_PLACEHOLDER) ? '' : probeQuery(contracts, template, at);
    probes.push({ resource, path: `${path}${query}`, expected });
  }
  return probes;
}
