import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createApp, type App } from '../../src/app/app.js';
import { loadConfig } from '../../src/config/index.js';
import type { Variant } from '../../src/contract/index.js';
import { writeAppConfig } from './appConfig.js';
import { FakeClock } from './fakeClock.js';

export interface AppRig {
  folder: string;
  configPath: string;
  outbox: string;
  inbox: string;
  clock: FakeClock;
  /** A new App over the same database and folders (a restart); silent unless given a logger. */
  open(logger?: Logger): Promise<App>;
  /** Drops an ERP message into the inbox, complete with its `.done` marker. */
  drop(kind: string, name: string, body: unknown): void;
  /** Data files the outbox holds for `resource` (no temp files, no markers). */
  outboxFiles(resource: string): string[];
  cleanup(): void;
}

/**
 * A daemon's configuration in a temp folder, against a simulator: the file adapter with `.done`
 * markers (so a test controls when the ERP's files are complete), fast retries, no endpoint.
 */
export function appRig(
  simulatorUrl: string,
  variant: Variant,
  start: string,
  extra: Record<string, unknown> = {},
  /** More `erp.file` settings beside the rig's folders and markers. */
  file: Record<string, unknown> = {},
): AppRig {
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-app-'));
  const { configPath, outbox, inbox } = writeAppConfig(
    folder,
    simulatorUrl,
    variant,
    { retry: { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 20_000 }, ...extra },
    {},
    file,
  );
  const clock = new FakeClock(start);
  return {
    folder,
    configPath,
    outbox,
    inbox,
    clock,
    open: (logger) =>
      createApp(loadConfig({ path: configPath, env: {}, cwd: folder }).config, {
        clock,
        env: {},
        logger: logger ?? pino({ enabled: false }),
        // Back-offs of half their range, so a test knows when a retry is due.
        random: () => 0.5,
      }),
    drop(kind, name, body) {
      mkdirSync(join(inbox, kind), { recursive: true });
      writeFileSync(join(inbox, kind, name), JSON.stringify(body));
      writeFileSync(join(inbox, kind, `${name}.done`), '');
    },
    outboxFiles(resource) {
      try {
        return readdirSync(join(outbox, resource))
          .filter((name) => !name.startsWith('.') && !name.endsWith('.done'))
          .sort();
      } catch {
        return [];
      }
    },
    cleanup: () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** The app's Prometheus registry; its rig must enable the endpoint (`http.enabled`) for it. */
export function registryOf(app: App): Registry {
  if (app.metrics === undefined) throw new Error('the app has no metrics: enable http in its rig');
  return app.metrics.registry;
}
