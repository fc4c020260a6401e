/**
 * The pull benchmark's child as the container runs the daemon: plain node, no tsx loader, the
 * daemon's modules imported from dist/ (see daemonCommand.ts). The child's own benchmark files
 * are transpiled into a temporary folder (TypeScript's transpileModule, one file at a time),
 * their imports of src/ pointed at the same modules in dist/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BENCH = join(ROOT, 'bench');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

/** Relative module specifiers of static and dynamic imports and re-exports, as tsc leaves them. */
const RELATIVE_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)'(\.{1,2}\/[^']+)'/g;

const outputOf = (file: string, folder: string): string =>
  join(folder, relative(BENCH, file)).replace(/\.ts$/, '.mjs');

/**
 * Writes `entry` (a benchmark file) and the benchmark files it imports, as JavaScript modules, to
 * `folder`; returns the path of the entry's module.
 */
export function transpileWithDist(entry: string, folder: string): string {
  const written = new Set<string>();
  const write = (file: string): void => {
    if (written.has(file)) return;
    written.add(file);
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.ES2022,
        target: ts.ScriptTarget.ES2023,
        verbatimModuleSyntax: true,
      },
    });
    const text = outputText.replace(RELATIVE_IMPORT, (_match, lead: string, specifier: string) => {
      const target = resolve(dirname(file), specifier);
      if (target.startsWith(SRC + sep)) {
        return `${lead}'${pathToFileURL(join(DIST, relative(SRC, target))).href}'`;
      }
      const source = target.replace(/\.js$/, '.ts');
      write(source);
      return `${lead}'${pathToFileURL(outputOf(source, folder)).href}'`;
    });
    const output = outputOf(file, folder);
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, text);
  };
  write(entry);
  return outputOf(entry, folder);
}
