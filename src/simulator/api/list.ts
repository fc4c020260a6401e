import {
  isStatusControlled,
  type BoundOperation,
  type ResourceName,
} from '../../contract/index.js';
import type { LoopSuppression } from '../loopSuppression.js';
import { needsShaping, present } from '../present.js';
import type { ListClause, ListOptions } from '../store/recordStore.js';
import type { CallContext } from './context.js';
import { jsonListResponse, type SimResponse } from './response.js';

type Query = Readonly<Record<string, string>>;

const iso = (value: string): string => new Date(value).toISOString();

/**
 * The `status` filter as conditions (documented mapping, see statusClass.ts): orders and care
 * arrangements by their status class; articles (B) by whether they were created after
 * `updatedAfter`; users (C) active or archived.
 */
function statusClause(resource: ResourceName, status: string, query: Query): ListClause {
  if (status === 'archived') return { archived: true };
  if (resource === 'article') {
    const after = query.updatedAfter === undefined ? undefined : iso(query.updatedAfter);
    if (after === undefined) return { archived: false };
    return status === 'created'
      ? { archived: false, createdAfter: after }
      : { archived: false, createdAtMost: after };
  }
  if (resource === 'users') return { archived: false };
  return { archived: false, statusClass: status };
}

/** The list's conditions, from the parameters the operation's query rule names. */
export function listCriteria(
  operation: BoundOperation,
  query: Query,
  client: string,
  suppression: LoopSuppression,
): { clauses: ListClause[]; options: ListOptions } {
  const { resource } = operation;
  const names = Object.keys(operation.detail.query.params);
  const given = (name: string): string | undefined =>
    names.includes(name) ? query[name] : undefined;
  const status = given('status');
  const main: ListClause = status ? statusClause(resource, status, query) : { archived: false };
  const updatedAfter = given('updatedAfter');
  if (updatedAfter !== undefined) main.timestampAfter = iso(updatedAfter);
  const createdAfter = given('createdAfter');
  // Documents filter createdAfter on updatedAt (spec document 2, GET /document).
  if (createdAfter !== undefined && resource === 'document')
    main.timestampAfter = iso(createdAfter);
  else if (createdAfter !== undefined) main.createdAfter = iso(createdAfter);
  const id = given('_id');
  if (id !== undefined) main.id = id;
  const patientId = given('patientId');
  if (patientId !== undefined) main.patientId = patientId;
  const archivedAfter = given('archivedAfter');
  // archivedAfter alone asks for the attachments archived since; with createdAfter, for both.
  const clauses = archivedAfter !== undefined && createdAfter === undefined ? [] : [main];
  if (archivedAfter !== undefined)
    clauses.push({ archived: true, timestampAfter: iso(archivedAfter) });
  const options: ListOptions = {};
  if (!isStatusControlled(resource)) {
    options.excludeClient = client;
    options.suppression = suppression;
  }
  const match = fieldMatch({ postalCode: given('postalCode'), templateId: given('templateId') });
  if (match) options.match = match;
  return { clauses, options };
}

function fieldMatch(
  wanted: Record<string, string | undefined>,
): ((record: Record<string, unknown>) => boolean) | undefined {
  const entries = Object.entries(wanted).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return undefined;
  return (record) => entries.every(([field, value]) => record[field] === value);
}

export function handleList(ctx: CallContext, operation: BoundOperation, query: Query): SimResponse {
  const { clauses, options } = listCriteria(
    operation,
    query,
    ctx.caller.client,
    ctx.loopSuppression,
  );
  const rows = ctx.store.list(ctx.caller.tenant, operation.resource, clauses, options);
  if (!needsShaping(operation.resource, 'list')) return jsonListResponse(rows);
  const shaped = (function* () {
    for (const row of rows) {
      const record = JSON.parse(row) as Record<string, unknown>;
      yield JSON.stringify(present(operation.resource, record, 'list'));
    }
  })();
  return jsonListResponse(shaped);
}
