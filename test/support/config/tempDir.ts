import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import type { InboxKinds } from '../../../src/erp/messages/index.js';
import { SetupError } from '../../../src/shared/errors.js';

/** A fresh temp folder per test, removed after it; `write` puts a file in it. */
export function useTempDir(): {
  path: () => string;
  write: (name: string, text: string) => Promise<string>;
} {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'homecare-sync-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    path: () => dir,
    write: async (name, text) => {
      const file = join(dir, name);
      await writeFile(file, text);
      return file;
    },
  };
}

export const MINIMAL = `
platform:
  baseUrl: https://platform.example/api
  apiKey: key-123
  variant: B
`;

/**
 * Loading a config text from a temp folder, and the problems of one that is refused. Given the
 * inbox kinds, `erp.file.inboxMapping` is checked against them, as `config check` does.
 */
export function useConfigLoader(options: { inboxKinds?: InboxKinds } = {}) {
  const dir = useTempDir();
  async function load(yaml: string, env: Record<string, string> = {}) {
    await dir.write('config.yaml', yaml);
    return loadConfig({ path: 'config.yaml', env, cwd: dir.path(), ...options });
  }
  /** The problems a failing load reports; fails the test when the load succeeds. */
  async function problems(yaml: string, env: Record<string, string> = {}): Promise<string[]> {
    try {
      await load(yaml, env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toBeInstanceOf(SetupError);
      return [...(error as ConfigError).problems];
    }
    throw new Error('expected the config to be refused');
  }
  return { dir, load, problems };
}
