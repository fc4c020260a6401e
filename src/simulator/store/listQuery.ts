import type Database from 'better-sqlite3';
import type { LoopSuppression } from '../loopSuppression.js';

/** One set of conditions, all of which must hold; a list ORs its clauses. */
export interface ListClause {
  archived?: boolean;
  statusClass?: string;
  timestampAfter?: string;
  createdAfter?: string;
  createdAtMost?: string;
  id?: string;
  patientId?: string;
}

export interface ListOptions {
  /** Leave out records whose last change this client made (loop suppression). */
  excludeClient?: string;
  /** How long they are left out (see loopSuppression.ts); `until-changed` unless told. */
  suppression?: LoopSuppression;
  /** A condition on the record itself, for rare parameters no column carries. */
  match?: (record: Record<string, unknown>) => boolean;
}

interface ListQuery {
  tenant: string;
  resource: string;
  clauses: readonly ListClause[];
  options: ListOptions;
  /** Changes made after the list began are left to the next pull, never sent half-way. */
  seqCap: number;
  /** Unique per list: under 'next' the changes this list leaves out are marked with it. */
  listId: number;
}

const PAGE_SIZE = 500;

function clauseSql(clause: ListClause): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown): void => {
    parts.push(sql);
    params.push(value);
  };
  if (clause.archived !== undefined) add('archived = ?', clause.archived ? 1 : 0);
  if (clause.statusClass !== undefined) add('status_class = ?', clause.statusClass);
  if (clause.timestampAfter !== undefined) add('timestamp > ?', clause.timestampAfter);
  if (clause.createdAfter !== undefined) add('created_at > ?', clause.createdAfter);
  if (clause.createdAtMost !== undefined) add('created_at <= ?', clause.createdAtMost);
  if (clause.id !== undefined) add('id = ?', clause.id);
  if (clause.patientId !== undefined) add('patient_id = ?', clause.patientId);
  return { sql: parts.length ? parts.join(' AND ') : '1', params };
}

function whereOf(query: ListQuery): { sql: string; params: unknown[] } {
  const clauses = query.clauses.map(clauseSql);
  const params: unknown[] = [query.tenant, query.resource, query.seqCap];
  let sql = 'tenant = ? AND resource = ? AND seq <= ?';
  if (clauses.length > 0) {
    sql += ` AND (${clauses.map((c) => `(${c.sql})`).join(' OR ')})`;
    params.push(...clauses.flatMap((c) => c.params));
  }
  const { excludeClient, suppression } = query.options;
  if (excludeClient !== undefined && suppression === 'next') {
    sql += ' AND (left_out_by IS NULL OR left_out_by != ?)';
    params.push(query.listId);
  } else if (excludeClient !== undefined) {
    sql += ' AND (changed_by_client IS NULL OR changed_by_client != ?)';
    params.push(excludeClient);
  }
  return { sql, params };
}

/**
 * Loop suppression 'next': the client's own changes this list would return are left out by
 * this list, and only by it; the client's later lists return them again.
 */
function leaveOutOnce(db: Database.Database, query: ListQuery): void {
  const { excludeClient, suppression } = query.options;
  if (excludeClient === undefined || suppression !== 'next') return;
  const where = whereOf({ ...query, options: {} });
  db.prepare(
    `UPDATE records SET suppress_next = 0, left_out_by = ?
     WHERE ${where.sql} AND suppress_next = 1 AND changed_by_client = ?`,
  ).run(query.listId, ...where.params, excludeClient);
}

interface PageRow {
  timestamp: string;
  id: string;
  json: string;
}

/**
 * Yields the JSON text of each matching record, page by page (keyset on timestamp and id), so
 * no statement stays open between pages and writes can go on while a long list streams out.
 */
export function* listRows(db: Database.Database, query: ListQuery): Generator<string> {
  leaveOutOnce(db, query);
  const where = whereOf(query);
  const order = `ORDER BY timestamp, id LIMIT ${PAGE_SIZE}`;
  const first = db.prepare<unknown[], PageRow>(
    `SELECT timestamp, id, json FROM records WHERE ${where.sql} ${order}`,
  );
  const next = db.prepare<unknown[], PageRow>(
    `SELECT timestamp, id, json FROM records WHERE ${where.sql} AND (timestamp, id) > (?, ?) ${order}`,
  );
  let rows = first.all(...where.params);
  for (;;) {
    for (const row of rows) {
      const { match } = query.options;
      if (!match || match(JSON.parse(row.json) as Record<string, unknown>)) yield row.json;
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE_SIZE) return;
    rows = next.all(...where.params, last.timestamp, last.id);
  }
}
