import { median } from './format.js';

/** One figure measured once a round: its values in round order, shown with `digits` decimals. */
export interface RoundsRow {
  label: string;
  values: readonly number[];
  digits: number;
}

/**
 * The figures of interleaved rounds side by side, one row each: a column per round (or `column`)
 * and the median, aligned as a Markdown table (it reads as one on a terminal and pastes into the docs).
 */
export function roundsTable(rows: readonly RoundsRow[], column = 'round'): string[] {
  const rounds = Math.max(0, ...rows.map((row) => row.values.length));
  const header = [
    'figure',
    ...Array.from({ length: rounds }, (_, i) => `${column} ${i + 1}`),
    'median',
  ];
  const cells = rows.map((row) => [
    row.label,
    ...Array.from({ length: rounds }, (_, i) => shown(row.values[i], row.digits)),
    shown(median(row.values), row.digits),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)),
  );
  const line = (values: readonly string[]) =>
    `| ${values
      .map((value, column) =>
        column === 0 ? value.padEnd(widths[0] ?? 0) : value.padStart(widths[column] ?? 0),
      )
      .join(' | ')} |`;
  const rule = `| ${widths.map((width, column) => (column === 0 ? '-'.repeat(width) : `${'-'.repeat(width - 1)}:`)).join(' | ')} |`;
  return [line(header), rule, ...cells.map(line)];
}

function shown(value: number | undefined, digits: number): string {
  return value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);
}
