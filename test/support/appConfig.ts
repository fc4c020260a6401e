import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Variant } from '../../src/contract/index.js';

export interface AppFolders {
  configPath: string;
  outbox: string;
  inbox: string;
}

/**
 * A daemon's config in `folder` against a platform at `platformUrl`, for tests and soaks: the
 * file adapter with `.done` markers (the writer of a file says when it is complete), quick read
 * retries, no endpoint, silent logs. `extra` overrides top-level keys.
 */
export function writeAppConfig(
  folder: string,
  platformUrl: string,
  variant: Variant,
  extra: Record<string, unknown> = {},
  /** More `platform` settings beside the address, key and quick read retries. */
  platform: Record<string, unknown> = {},
  /** More `erp.file` settings beside the folders and markers. */
  file: Record<string, unknown> = {},
): AppFolders {
  const outbox = join(folder, 'erp', 'outbox');
  const inbox = join(folder, 'erp', 'inbox');
  const configPath = join(folder, 'homecare-sync.yaml');
  const config = {
    platform: {
      baseUrl: platformUrl,
      apiKey: 'demo-key',
      variant,
      timeoutMs: 5000,
      readRetry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
      ...platform,
    },
    storage: { path: join(folder, 'sync.db') },
    erp: { adapter: 'file', file: { outbox, inbox, doneMarker: true, ...file } },
    http: { enabled: false },
    log: { level: 'silent' },
    ...extra,
  };
  writeFileSync(configPath, stringify(config), { mode: 0o600 });
  return { configPath, outbox, inbox };
}
