import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IFlattenedRuleSet } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The rules `npm run lint` checks src/ against (docs/architecture.md). */
const { forbidden } = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as {
  forbidden: NonNullable<IFlattenedRuleSet['forbidden']>;
};

/**
 * A small src/ with one import of each kind the rules decide on (in double quotes, so the check
 * of what tests import, testProjects.test.ts, does not read them as this file's imports).
 */
const FILES: Readonly<Record<string, string>> = {
  'src/pull/puller.ts': 'import { a } from "../store/mirror.js";\nexport const p = a;\n',
  'src/pull/window.ts': 'import { p } from "./puller.js";\nexport const w = p;\n',
  'src/deliver/deliver.ts': 'import { p } from "../pull/puller.js";\nexport const d = p;\n',
  'src/store/mirror.ts': 'export const a = 1;\n',
  'src/housekeeping/prune.ts': 'import { d } from "../deliver/deliver.js";\nexport const r = d;\n',
  'src/readModels/figures.ts': 'import { a } from "../store/mirror.js";\nexport const f = a;\n',
  'src/store/ledger.ts': 'import { f } from "../readModels/figures.js";\nexport const l = f;\n',
  'src/queue/claim.ts': 'import type { J } from "./pass.js";\nexport type C = J;\n',
  'src/queue/pass.ts': 'import type { C } from "./claim.js";\nexport type J = { c?: C };\n',
  'src/app/app.ts': 'import { d } from "../deliver/deliver.js";\nexport const x = d;\n',
  'src/check/verdict.ts': 'import { a } from "../store/mirror.js";\nexport const v = a;\n',
  'src/store/space.ts': 'import { v } from "../check/verdict.js";\nexport const s = v;\n',
  'src/operations/replay.ts': 'import { x } from "../app/app.js";\nexport const o = x;\n',
  'src/cli/main.ts': 'import { x } from "../app/app.js";\nexport const m = x;\n',
};

let base = '';
let result: ICruiseResult;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'homecare-sync-rooms-'));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(base, file)), { recursive: true });
    writeFileSync(join(base, file), text);
  }
  const { output } = await cruise(['src'], {
    baseDir: base,
    validate: true,
    ruleSet: { forbidden },
    tsPreCompilationDeps: true,
  });
  if (typeof output === 'string') throw new Error('cruise answered text, not a result');
  result = output;
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const broken = () =>
  result.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`).sort();

describe('the rooms rules (.dependency-cruiser.cjs)', () => {
  it('refuses a stage importing another stage, a mechanism importing a stage or an interface, the store importing what uses its tables, a circle, and anything but the commands and the demo importing the composition root', () => {
    expect(broken()).toEqual([
      'interfaces-on-top: src/store/space.ts -> src/check/verdict.ts',
      'mechanisms-below-stages: src/housekeeping/prune.ts -> src/deliver/deliver.ts',
      'no-circle: src/queue/claim.ts -> src/queue/pass.ts',
      'root-on-top: src/operations/replay.ts -> src/app/app.ts',
      'stages-apart: src/deliver/deliver.ts -> src/pull/puller.ts',
      'store-below-its-users: src/store/ledger.ts -> src/readModels/figures.ts',
    ]);
  });

  it('lets a stage import mechanisms and its own files, and the composition root anything', () => {
    const from = result.summary.violations.map((violation) => violation.from);
    expect(from).not.toContain('src/pull/puller.ts');
    expect(from).not.toContain('src/pull/window.ts');
    expect(from).not.toContain('src/app/app.ts');
    expect(from).not.toContain('src/cli/main.ts');
    expect(from).not.toContain('src/check/verdict.ts');
    expect(from).not.toContain('src/readModels/figures.ts');
    expect(result.summary.totalCruised).toBe(Object.keys(FILES).length);
  });
});
