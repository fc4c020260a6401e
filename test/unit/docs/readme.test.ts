import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAX_LINES = 250;
const MAX_WIDTH = 100;
/** The pages people start from: every link in them must lead somewhere. */
const ENTRY_PAGES = ['README.md', 'docs/README.md', 'docs/operations.md'];

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The targets of the relative Markdown links of `page`, as paths from the repository root. */
function linkedPaths(page: string): string[] {
  const targets = [...read(page).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
  return targets
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
    .map((target) => relative(ROOT, resolve(ROOT, dirname(page), target.split('#')[0] ?? '')));
}

describe('README.md', () => {
  const lines = read('README.md').split('\n');

  it(`is at most ${MAX_LINES} lines, wrapped at ${MAX_WIDTH} characters`, () => {
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES);
    const wide = lines
      .map((line, index) => ({ line: index + 1, width: [...line].length }))
      .filter((entry) => entry.width > MAX_WIDTH);
    expect(wide, 'lines of README.md wider than 100 characters').toEqual([]);
  });

  it('shows the two commands: npm install && npm start, and npm test', () => {
    expect(lines).toContain('npm install && npm start');
    expect(lines).toContain('npm test');
  });
});

describe('calling homecare-sync', () => {
  // `npm install` links no bin of the package itself: the docs must say `npx homecare-sync` for a
  // clone, and the image must put `homecare-sync` on the PATH for `exec` into the container.
  // .ci/run starts `npx homecare-sync --help` after `npm run build`.
  it('the README and the command-line page say how to call it in a clone and in the image', () => {
    for (const page of ['README.md', 'docs/readme/cli.md']) {
      expect(read(page), page).toContain('npx homecare-sync');
      expect(read(page), page).toMatch(/exec homecare-sync homecare-sync status/);
    }
  });

  it("package.json's bin is the CLI's entry, started by its own shebang", () => {
    const { bin } = JSON.parse(read('package.json')) as { bin: Record<string, string> };
    expect(bin['homecare-sync']).toBe('dist/cli/main.js');
    expect(read('src/cli/main.ts').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('the image puts that entry on the PATH as homecare-sync', () => {
    expect(read('Dockerfile')).toContain(
      'ln -s /app/dist/cli/main.js /usr/local/bin/homecare-sync',
    );
  });
});

describe('links', () => {
  it.each(ENTRY_PAGES)('every relative link in %s resolves to a file or folder', (page) => {
    const missing = linkedPaths(page).filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it('every topic page and the runbook are reachable from README.md through docs/README.md', () => {
    expect(linkedPaths('README.md')).toContain('docs/README.md');
    const index = new Set(linkedPaths('docs/README.md'));
    const pages = [
      ...readdirSync(join(ROOT, 'docs/readme')).map((name) => `docs/readme/${name}`),
      'docs/operations.md',
    ];
    expect(pages.filter((page) => !index.has(page))).toEqual([]);
  });
});
