import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

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
