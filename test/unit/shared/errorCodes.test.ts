import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  HTTP_STATUS_CODES,
  type ErrorCodeEntry,
} from '../../../src/shared/errorCodes.js';
import { PermanentError, SetupError, TransientError } from '../../../src/shared/errors.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PAGE = 'docs/readme/errors.md';
const TABLE_FILE = 'src/shared/errorCodes.ts';

/** Every row of the table, the `HTTP_<status>` family among them, by code. */
function tableRows(): Record<string, ErrorCodeEntry> {
  const rows: Record<string, ErrorCodeEntry> = {};
  for (const [code, { meaning, hint }] of Object.entries(ERROR_CODES))
    rows[code] = { meaning, hint };
  rows[HTTP_STATUS_CODES.code] = {
    meaning: HTTP_STATUS_CODES.meaning,
    hint: HTTP_STATUS_CODES.hint,
  };
  return rows;
}

/** The page's table rows (`| \`CODE\` | meaning | hint |`), by code. */
function pageRows(): Record<string, ErrorCodeEntry> {
  const rows: Record<string, ErrorCodeEntry> = {};
  for (const line of readFileSync(join(ROOT, PAGE), 'utf8').split('\n')) {
    const cells = /^\|\s*`([^`]+)`\s*\|(.*)\|(.*)\|\s*$/.exec(line);
    if (cells === null) continue;
    const [, code = '', meaning = '', hint = ''] = cells;
    expect(rows, `${code} is listed twice in ${PAGE}`).not.toHaveProperty(code);
    rows[code] = { meaning: meaning.trim(), hint: hint.trim() };
  }
  return rows;
}

/** Every TypeScript file under src/, with its path from the repository root. */
function sources(): { path: string; text: string }[] {
  return readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join('src', name))
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

describe('the table of error codes', () => {
  it(`is what ${PAGE} lists, code by code, word by word`, () => {
    expect(pageRows(), `${PAGE} shows the table of ${TABLE_FILE}: change both`).toEqual(
      tableRows(),
    );
  });

  it('holds every code that src/ gives an error (`code: ...`), upper-case codes only', () => {
    // Lower-case codes are zod's (`code: 'custom'`), not ours.
    const outside = sources().flatMap(({ path, text }) =>
      [...text.matchAll(/\bcode: '([A-Z][A-Z0-9_]*)'/g)]
        .map((match) => match[1] ?? '')
        .filter((code) => !Object.hasOwn(ERROR_CODES, code))
        .map((code) => `${path}: ${code}`),
    );
    expect(outside, `codes missing from ${TABLE_FILE}`).toEqual([]);
  });

  it('has no row that src/ never spells (a code no error carries any more)', () => {
    const spelled = sources()
      .filter(({ path }) => path !== TABLE_FILE)
      .map(({ text }) => text)
      .join('\n');
    const unused = Object.keys(ERROR_CODES).filter((code) => !spelled.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });
});

describe('the hint an error carries', () => {
  it("is the table's for its code when the thrower gave none", () => {
    const full = new TransientError('database x cannot be written', { code: 'STORE_FULL' });
    expect(full.hint).toBe(ERROR_CODES.STORE_FULL.hint);
    expect(new PermanentError('no job 7 in the queue', { code: 'QUEUE_JOB_NOT_FOUND' }).hint).toBe(
      ERROR_CODES.QUEUE_JOB_NOT_FOUND.hint,
    );
  });

  it("is its kind's when it has no code: TRANSIENT, PERMANENT, SETUP", () => {
    const errors = [new TransientError('a'), new PermanentError('b'), new SetupError('c')];
    expect(errors.map((error) => [error.code, error.hint])).toEqual([
      ['TRANSIENT', ERROR_CODES.TRANSIENT.hint],
      ['PERMANENT', ERROR_CODES.PERMANENT.hint],
      ['SETUP', ERROR_CODES.SETUP.hint],
    ]);
  });

  it("is the thrower's own where it gave one (it knows the key to raise, the record to fix)", () => {
    const hint = 'set platform.listBounds.article.records: 4000000';
    expect(new PermanentError('stopped', { code: 'LIST_BOUND', hint }).hint).toBe(hint);
  });

  it('of an HTTP status code is the one row of the HTTP_<status> family', () => {
    expect(new TransientError('answered 418', { code: 'HTTP_418' }).hint).toBe(
      HTTP_STATUS_CODES.hint,
    );
  });
});
