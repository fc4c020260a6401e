import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
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
