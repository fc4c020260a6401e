import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { REPO_ROOT } from '../cli.js';

type Tree = Record<string, Record<string, unknown>>;

/**
 * config/demo.yaml as it ships, moved into a temp folder: free ports, everything faster, and
 * `change` applied last. Returns the folder and the config file in it.
 */
export function demoConfigIn(change: (tree: Tree) => void = () => undefined): {
  folder: string;
  configPath: string;
  cleanup(): void;
} {
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-demo-'));
  const tree = parse(readFileSync(join(REPO_ROOT, 'config/demo.yaml'), 'utf8')) as Tree;
  const every = (seconds: number) => ({ schedule: `*/${seconds} * * * * *` });
  tree['sync'] = {
    ...tree['sync'],
    resources: {
      singleOrder: every(1),
      directOrder: every(1),
      integratedCare: every(2),
      patient: every(2),
    },
  };
  tree['erp'] = {
    ...tree['erp'],
    file: { ...(tree['erp']?.['file'] as object), scanIntervalMs: 100, minFileAgeMs: 0 },
  };
  tree['queue'] = { pollIntervalMs: 50 };
  tree['http'] = { ...tree['http'], port: 0 };
  change(tree);
  const configPath = join(folder, 'demo.yaml');
  writeFileSync(configPath, stringify(tree));
  return { folder, configPath, cleanup: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Every file under `dir`, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
}
