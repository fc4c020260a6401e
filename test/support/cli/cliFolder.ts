import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import { contractFor } from '../../../src/contract/index.js';
import { pullTargets } from '../../../src/pull/targets.js';
import type { ApiKeyEntry } from '../../../src/simulator/index.js';
import { runCli, type CliResult } from '../cli.js';

/** A key no other text contains, so a test can grep the output for it. */
export const API_KEY = 'hs-live-4c7e19d2a85b';
export const SIM_KEYS: readonly ApiKeyEntry[] = [
  { key: API_KEY, tenant: 'demo', client: 'erp-1', attachments: true },
  { key: 'demo-key-2', tenant: 'demo', client: 'erp-2', attachments: false },
];

/** `sync.resources` giving each resource variant B pulls (the folder's variant) `setting(it)`. */
export function everyResource(setting: (resource: string) => unknown): Record<string, unknown> {
  const resources = new Set(pullTargets(contractFor('B')).map((target) => target.resource));
  return Object.fromEntries([...resources].map((resource) => [resource, setting(resource)]));
}

export interface CliFolder {
  folder: string;
  configPath: string;
  database: string;
  outbox: string;
  /** `homecare-sync <args> -c <config>`, run in the folder with an empty environment. */
  cli(...args: string[]): Promise<CliResult>;
  /** Every data file in the outbox, as paths below it, sorted. */
  outboxFiles(): string[];
  cleanup(): void;
}

function filesBelow(root: string): string[] {
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

/**
 * A temp folder with a config for the simulator at `simulatorUrl` (variant B, the file adapter,
 * fast read retries, info logs on stdout, no endpoint). `extra` replaces whole top-level sections.
 */
export function cliFolder(simulatorUrl: string, extra: Record<string, unknown> = {}): CliFolder {
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-cli-'));
  const configPath = join(folder, 'homecare-sync.yaml');
  const database = join(folder, 'sync.db');
  const outbox = join(folder, 'erp', 'outbox');
  const config = {
    platform: {
      baseUrl: simulatorUrl,
      apiKey: API_KEY,
      variant: 'B',
      timeoutMs: 5000,
      readRetry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
    },
    storage: { path: database },
    erp: { adapter: 'file', file: { outbox, inbox: join(folder, 'erp', 'inbox') } },
    retry: { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 20_000 },
    http: { enabled: false },
    log: { level: 'info' },
    ...extra,
  };
  writeFileSync(configPath, stringify(config), { mode: 0o600 });
  return {
    folder,
    configPath,
    database,
    outbox,
    cli: (...args) => runCli([...args, '-c', configPath], { cwd: folder }),
    outboxFiles: () => filesBelow(outbox),
    cleanup: () => rmSync(folder, { recursive: true, force: true }),
  };
}
