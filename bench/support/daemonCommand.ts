/**
 * How the benchmarks start homecare-sync: as its container does (`node <flags>
 * dist/cli/main.js`), with the node flags read from the Dockerfile's ENTRYPOINT, so a figure is
 * the one a user of the image gets; `dist/` is built first when it is older than `src/`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUILT_MAIN = join(ROOT, 'dist/cli/main.js');
const ENTRY_SCRIPT = 'dist/cli/main.js';

function newestBelow(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds dist/ (npm run build) when it is missing or older than src/. */
export function ensureBuilt(print: (line: string) => void): void {
  if (existsSync(BUILT_MAIN) && statSync(BUILT_MAIN).mtimeMs >= newestBelow(join(ROOT, 'src')))
    return;
  print('dist/ is older than src/: building it first (npm run build)');
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    { cwd: ROOT, stdio: 'inherit' },
  );
}

/** The node flags of the Dockerfile's `ENTRYPOINT ["node", <flags>, "dist/cli/main.js"]`. */
export function containerNodeFlags(dockerfile = join(ROOT, 'Dockerfile')): string[] {
  const line = readFileSync(dockerfile, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('ENTRYPOINT '));
  const entry: unknown = line === undefined ? undefined : JSON.parse(line.slice(11));
  const words = Array.isArray(entry) ? entry.map(String) : [];
  if (words[0] !== 'node' || words.at(-1) !== ENTRY_SCRIPT) {
    throw new Error(
      `${dockerfile}: expected ENTRYPOINT ["node", <node flags>, "${ENTRY_SCRIPT}"], found ${line ?? 'none'}`,
    );
  }
  return words.slice(1, -1);
}

/** `node` arguments that start `homecare-sync <args>` as the container does. */
export function asInContainer(args: readonly string[]): string[] {
  return [...containerNodeFlags(), BUILT_MAIN, ...args];
}
