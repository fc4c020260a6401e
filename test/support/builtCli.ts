/**
 * The CLI as the container runs it: plain node on JavaScript, no loader. Built once per test run
 * (vitest's global setup), so that each of the suite's ~400 process starts costs ~0.2 s instead
 * of the ~2 s a start through the tsx loader costs (it compiles every module on each start).
 *
 * Each source file is transpiled on its own (TypeScript's transpileModule; the project compiles
 * with `isolatedModules`, so this is what `tsc` emits), into `.tmp/cli-<pid>/dist/` beside a copy
 * of package.json: the layout of the image, where `dist/shared/version.js` reads
 * `../../package.json` and bare imports resolve to the repository's node_modules.
 */
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built `dist/cli/main.js` the tests start the CLI from. */
    builtCli: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const XSD = join('erp', 'formats', 'openTrans', 'xsd');

function transpile(from: string, to: string): void {
  const { outputText } = ts.transpileModule(readFileSync(from, 'utf8'), {
    fileName: from,
    compilerOptions: {
      module: ts.ModuleKind.ES2022,
      target: ts.ScriptTarget.ES2023,
      verbatimModuleSyntax: true,
    },
  });
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, outputText);
}

/** Builds the sources into `folder` as the image lays them out; answers the CLI's entry. */
export function buildCli(folder: string): string {
  const dist = join(folder, 'dist');
  for (const name of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (name.endsWith('.ts')) transpile(join(SRC, name), join(dist, name.replace(/\.ts$/, '.js')));
  }
  // What `npm run build` copies beside the JavaScript: the openTRANS schemas the inbox reads.
  cpSync(join(SRC, XSD), join(dist, XSD), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(folder, 'package.json'));
  return join(dist, 'cli', 'main.js');
}

export default function setup(project: TestProject): () => void {
  const folder = join(ROOT, '.tmp', `cli-${process.pid}`);
  rmSync(folder, { recursive: true, force: true });
  project.provide('builtCli', buildCli(folder));
  return () => rmSync(folder, { recursive: true, force: true });
}
