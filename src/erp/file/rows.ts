import type { ResourceName } from '../../contract/index.js';
import { isPlainObject, valueAt } from '../../shared/objects.js';

/** Orders whose lines are written one CSV row each, with the order's columns repeated. */
export const ORDER_LINES: Partial<Record<ResourceName, string>> = {
  singleOrder: 'orderedArticleLines',
  directOrder: 'orderedArticleLines',
  erpOrder: 'erpOrderedArticleLines',
};

/** One row of the CSV: the record, and for orders the line the row is about. */
export interface CsvRow {
  record: Record<string, unknown>;
  line?: Record<string, unknown>;
}

export function rowsOf(resource: ResourceName, records: readonly Record<string, unknown>[]) {
  const linesField = ORDER_LINES[resource];
  const rows: CsvRow[] = [];
  for (const record of records) {
    const lines = linesField === undefined ? undefined : record[linesField];
    const lineObjects = Array.isArray(lines) ? lines.filter(isPlainObject) : [];
    if (lineObjects.length === 0) rows.push({ record });
    else for (const line of lineObjects) rows.push({ record, line });
  }
  return rows;
}

/** A column's value in one row; `<linesField>.x` reads the row's own order line. */
export function cellValue(resource: ResourceName, row: CsvRow, column: string): unknown {
  const linesField = ORDER_LINES[resource];
  if (linesField !== undefined && column.startsWith(`${linesField}.`)) {
    return valueAt(row.line, column.slice(linesField.length + 1));
  }
  return valueAt(row.record, column);
}
