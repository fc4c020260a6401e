/**
 * `npx tsx bench/sqlSummary.ts <sql-n.json> [orders]`: the SQL one daemon run counted
 * (BENCH_CYCLE_SQL, see bench/support/sqlCounter.mjs), heaviest first: calls and time in all
 * and per order, and the totals: statements, commits and time in SQLite per order.
 */
import { readFileSync } from 'node:fs';

interface Counted {
  sql: string;
  calls: number;
  ms: number;
}

const [file, ordersText = '2200', shownText = '30'] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: npx tsx bench/sqlSummary.ts <sql-n.json> [orders (2200)] [rows (30)]');
  process.exit(2);
}
const orders = Number(ordersText);
const rows = JSON.parse(readFileSync(file, 'utf8')) as Counted[];
const totalMs = rows.reduce((sum, row) => sum + row.ms, 0);
const calls = rows.reduce((sum, row) => sum + row.calls, 0);
const commits = rows.find((row) => row.sql === 'COMMIT')?.calls ?? 0;
const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 110);

console.log(
  `${calls} statements (${(calls / orders).toFixed(1)} an order), ${commits} commits ` +
    `(${(commits / orders).toFixed(2)} an order), ${totalMs.toFixed(0)} ms in SQLite ` +
    `(${((totalMs * 1000) / orders).toFixed(0)} µs an order) over ${orders} orders`,
);
console.log('calls/order   µs/order  share  statement');
for (const row of rows.slice(0, Number(shownText))) {
  console.log(
    `${(row.calls / orders).toFixed(2).padStart(11)} ${((row.ms * 1000) / orders).toFixed(1).padStart(10)} ` +
      `${((row.ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${oneLine(row.sql)}`,
  );
}
