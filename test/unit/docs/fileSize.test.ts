import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../../src');

/** Past it a file is two things (issue 39); the house's aim is about 300. */
const MOST_LINES = 350;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('files under src/', () => {
  it(`have at most ${MOST_LINES} lines each`, () => {
    const long = sourceFiles(SRC)
      .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MOST_LINES)
      .map(({ file, lines }) => `${relative(SRC, file)}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
