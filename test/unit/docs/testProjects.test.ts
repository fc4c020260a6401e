import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Keeps each test in the folder of its vitest project: one that starts a process or a server (the
 * simulator, a scripted HTTP server, the daemon's endpoint, the CLI as a child process), itself
 * or through a test helper it imports, is an integration test (test/integration/); the rest
 * (pure logic, SQLite in a temp folder, files) are unit tests (test/unit/), run in threads
 * without isolation. The folder decides which project runs a test; this check tells a newcomer
 * when a test sits in the wrong one.
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

const ROOT = join(import.meta.dirname, '../../..');
const TEST_ROOT = join(ROOT, 'test');
// This file names what starts something without starting it.
const inFolder = (folder: string) =>
  testFiles(join(TEST_ROOT, folder))
    .filter((file) => file !== import.meta.filename)
    .map((file) => ({
      file: relative(ROOT, file),
      starts: startsSomething(file, TEST_ROOT, new Set()),
    }));

describe('each test sits in the folder of its project', () => {
  it('test/unit/ starts no process or server', () => {
    const misplaced = inFolder('unit').filter((test) => test.starts);
    expect(misplaced.map((test) => test.file)).toEqual([]);
  });

  it('test/integration/ holds only tests that do', () => {
    const misplaced = inFolder('integration').filter((test) => !test.starts);
    expect(misplaced.map((test) => test.file)).toEqual([]);
  });

  it('no test file lies outside the two', () => {
    const all = testFiles(TEST_ROOT).map((file) => relative(ROOT, file));
    const outside = all.filter(
      (file) => !file.startsWith('test/unit/') && !file.startsWith('test/integration/'),
    );
    expect(outside).toEqual([]);
  });
});
