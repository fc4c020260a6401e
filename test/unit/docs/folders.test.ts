import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../../src');

/**
 * The file whose first comment says what a folder is: its `index.ts`, or, where the folder has
 * none (its files are imported one by one), the file a newcomer opens first.
 */
const FRONT_FILES: Readonly<Record<string, string>> = {
  app: 'app.ts',
  cli: 'program.ts',
  deliver: 'deliver.ts',
  erp: 'adapter.ts',
  http: 'server.ts',
  pull: 'scheduler.ts',
  shared: 'errors.ts',
};

/** What a folder may be (docs/architecture.md), as its first comment opens. */
const KINDS =
  /^(Stage [123], (pull|deliver|push back)|Mechanism|Operations|Composition root|Interface|Tool):/;

const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());

function firstComment(file: string): string {
  const match = /\/\*\*\s*\n?\s*\*?\s*([^\n]*)/.exec(readFileSync(file, 'utf8'));
  return match?.[1]?.trim() ?? '';
}

describe('every folder under src/ says what it is in its first comment', () => {
  it.each(folders)('%s', (folder) => {
    const front = FRONT_FILES[folder] ?? 'index.ts';
    const file = join(SRC, folder, front);
    expect(statSync(file, { throwIfNoEntry: false })?.isFile(), `${folder}/${front}`).toBe(true);
    expect(readFileSync(file, 'utf8').startsWith('/**'), `${folder}/${front} opens with it`).toBe(
      true,
    );
    expect(firstComment(file)).toMatch(KINDS);
  });

  it('and architecture.md gives each the same kind', () => {
    const architecture = readFileSync(join(SRC, '../docs/architecture.md'), 'utf8');
    for (const folder of folders) {
      const row = architecture.split('\n').find((line) => line.includes(`\`src/${folder}/\``));
      expect(row, `docs/architecture.md has a row for src/${folder}/`).toBeDefined();
      const said = firstComment(join(SRC, folder, FRONT_FILES[folder] ?? 'index.ts'));
      const kind = said.startsWith('Stage') ? 'stage' : (said.split(':')[0] ?? '').toLowerCase();
      expect(row?.toLowerCase(), `src/${folder}/ is a ${kind} in both`).toContain(kind);
    }
  });
});
