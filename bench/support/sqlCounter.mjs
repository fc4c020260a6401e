// A bench-only preload (`node --import <this file>`): counts the SQL a process runs through
// better-sqlite3, per statement text, with the time spent in it (the commit's fsync is in
// COMMIT's), and writes the counts as JSON to $BENCH_SQL_COUNTS when the process exits (and on
// SIGUSR2, see below). Read them with `npx tsx bench/sqlSummary.ts <file> <orders>`. Every
// prepared statement, and the BEGIN and COMMIT of better-sqlite3's transactions, share one
// native prototype: patching its methods once sees them all. `iterate` is timed to its first
// row only. Time is wall time: on a busy machine it includes the moments the thread waited.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const target = process.env.BENCH_SQL_COUNTS;
const counts = new Map();

function add(sql, ns) {
  const entry = counts.get(sql) ?? { calls: 0, ns: 0n };
  entry.calls += 1;
  entry.ns += ns;
  counts.set(sql, entry);
}

function timed(original, sqlOf) {
  return function (...args) {
    const started = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      add(sqlOf(this, args), process.hrtime.bigint() - started);
    }
  };
}

let patched = false;
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (...args) {
  const statement = prepare.apply(this, args);
  if (!patched) {
    patched = true;
    const prototype = Object.getPrototypeOf(statement);
    for (const name of ['run', 'get', 'all', 'iterate']) {
      prototype[name] = timed(prototype[name], (self) => self.source);
    }
  }
  return statement;
};
Database.prototype.exec = timed(Database.prototype.exec, (_, [sql]) => `exec: ${sql}`);
Database.prototype.pragma = timed(Database.prototype.pragma, (_, [sql]) => `pragma: ${sql}`);

function write(path) {
  const rows = [...counts].map(([sql, { calls, ns }]) => ({ sql, calls, ms: Number(ns) / 1e6 }));
  writeFileSync(path, JSON.stringify(rows.sort((a, b) => b.ms - a.ms)));
}

// `kill -USR2 <pid>`: the counts so far to <target>.<n>, then counting starts again from zero,
// so a stretch of the run (an idle minute) can be counted on its own.
let snapshots = 0;
process.on('SIGUSR2', () => {
  if (target === undefined) return;
  write(`${target}.${++snapshots}`);
  counts.clear();
});
process.on('exit', () => {
  if (target !== undefined) write(target);
});
