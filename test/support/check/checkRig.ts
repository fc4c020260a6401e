import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import {
  createCheckContext,
  type CheckContext,
  type CheckDeps,
} from '../../../src/check/context.js';
import type { Outcome } from '../../../src/check/verdict.js';
import type { CheckDefinition } from '../../../src/check/runner.js';
import { loadConfig } from '../../../src/config/index.js';
import { FakeClock } from '../fakeClock.js';

export const GIB = 1024 * 1024 * 1024;

/** A folder of its own with a config in it, and the context the checks run in. */
export interface CheckRig {
  folder: string;
  database: string;
  outbox: string;
  inbox: string;
  context(deps?: Partial<CheckDeps>, config?: Record<string, unknown>): CheckContext;
  run(check: CheckDefinition<CheckContext>, deps?: Partial<CheckDeps>): Promise<Outcome>;
  cleanup(): Promise<void>;
}

/**
 * A config for `baseUrl` (variant B, the file adapter in the rig's folder), loaded as the CLI
 * loads it; `extra` replaces whole top-level sections. The disk has 10 GiB free unless told.
 */
export function checkRig(
  baseUrl = 'http://127.0.0.1:9',
  extra: Record<string, unknown> = {},
): CheckRig {
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-check-'));
  const database = join(folder, 'data', 'sync.db');
  const outbox = join(folder, 'erp', 'outbox');
  const inbox = join(folder, 'erp', 'inbox');
  const contexts: CheckContext[] = [];
  const context = (deps: Partial<CheckDeps> = {}, more: Record<string, unknown> = {}) => {
    const configPath = join(folder, `config-${contexts.length}.yaml`);
    const config = {
      platform: { baseUrl, apiKey: 'check-key-0123456789', variant: 'B', timeoutMs: 2000 },
      storage: { path: database },
      erp: { adapter: 'file', file: { outbox, inbox } },
      http: { enabled: false },
      ...extra,
      ...more,
    };
    writeFileSync(configPath, stringify(config), { mode: 0o600 });
    const loaded = loadConfig({ path: configPath, env: {}, cwd: folder });
    const made = createCheckContext(loaded.config, {
      clock: new FakeClock('2026-03-01T08:00:00.000Z'),
      limitMs: 5000,
      sleep: () => new Promise(() => undefined),
      env: {},
      cwd: folder,
      statfs: () => Promise.resolve({ freeBytes: 10 * GIB, totalBytes: 100 * GIB }),
      ...deps,
    });
    contexts.push(made);
    return made;
  };
  return {
    folder,
    database,
    outbox,
    inbox,
    context,
    run: (check, deps) => check.run(context(deps), new AbortController().signal),
    async cleanup() {
      for (const made of contexts) await made.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
