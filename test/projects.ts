import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * Splits the test files into the two vitest projects by what they start, read from their source
 * and the test helpers they import (transitively): a test that starts a process or a server (the
 * simulator, a scripted HTTP server, the daemon's endpoint, the CLI as a child process) is an
 * integration test; the rest (pure logic, SQLite in a temp folder, files) are unit tests. Read
 * from the code rather than listed by hand, so a new test lands in the right project by itself.
 */
const STARTS_SOMETHING =
  /\b(startTestSimulator|startSimulator|startScriptedServer|createServer|spawn|execFile|startDemo|startDaemonProcess|runCli|startApp|startDaemon|startHttpEndpoint)\b|\.listen\(/;
const LOCAL_IMPORT = /from '(\.{1,2}\/[^']+)'/g;

function testFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => join(folder, name));
}

/** Whether `file` or a test helper it imports starts something; `seen` stops import cycles. */
function startsSomething(file: string, testRoot: string, seen: Set<string>): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  if (STARTS_SOMETHING.test(source)) return true;
  for (const [, specifier] of source.matchAll(LOCAL_IMPORT)) {
    const imported = resolve(dirname(file), specifier ?? '').replace(/\.js$/, '.ts');
    // Only helpers under test/: the sources under src/ are what every test exercises.
    if (imported.startsWith(testRoot) && startsSomething(imported, testRoot, seen)) return true;
  }
  return false;
}

/** The unit and integration test files, as paths relative to `root`. */
export function testProjects(root: string): { unit: string[]; integration: string[] } {
  const testRoot = join(root, 'test');
  const unit: string[] = [];
  const integration: string[] = [];
  for (const file of testFiles(testRoot).sort()) {
    const bucket = startsSomething(file, testRoot, new Set()) ? integration : unit;
    bucket.push(relative(root, file));
  }
  return { unit, integration };
}
