import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { MINIMAL, useTempDir } from '../../support/config/tempDir.js';
import { lockFolder } from '../../support/lockFolder.js';

const dir = useTempDir();

/** `config check`'s load of `yaml` from the temp folder: the folders are checked too. */
async function check(yaml: string) {
  await dir.write('config.yaml', yaml);
  return loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path(), checkFolders: true });
}

async function problems(yaml: string): Promise<readonly string[]> {
  try {
    await check(yaml);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the config to be refused');
}

const withFolders = (storage: string, outbox: string, inbox: string) =>
  `${MINIMAL}storage: { path: ${storage} }\nerp: { adapter: file, file: { outbox: ${outbox}, inbox: ${inbox} } }\n`;

describe('config check: the folders the daemon writes into', () => {
  it('takes folders that exist and folders it can create under a writable parent', async () => {
    mkdirSync(join(dir.path(), 'erp', 'outbox'), { recursive: true });
    const loaded = await check(
      withFolders('./data/sub/sync.db', './erp/outbox', './erp/new/inbox'),
    );
    expect(loaded.config.storage.path).toBe('./data/sub/sync.db');
  });

  it('names every folder that cannot be created, by its key, with the parent in the way', async () => {
    // A file where a folder must go stops even root, so the test holds for any user.
    writeFileSync(join(dir.path(), 'plain-file'), 'not a folder');
    const root = dir.path();
    const found = await problems(
      withFolders('./plain-file/db/sync.db', './plain-file/outbox', './plain-file'),
    );
    expect(found).toEqual([
      `storage.path: the folder of the database, ${root}/plain-file/db, cannot be created: ${root}/plain-file is not a folder`,
      `erp.file.outbox: ${root}/plain-file/outbox cannot be created: ${root}/plain-file is not a folder`,
      `erp.file.inbox: ${root}/plain-file is not a folder`,
    ]);
  });

  // Root too, as CI runs: lockFolder stops root with the immutable flag or a read-only mount.
  it('names a folder under a parent this user may not write to', async () => {
    const locked = join(dir.path(), 'locked');
    mkdirSync(locked);
    const unlock = lockFolder(locked);
    try {
      const found = await problems(withFolders('./sync.db', './locked/outbox', './inbox'));
      expect(found).toEqual([
        `erp.file.outbox: ${locked}/outbox cannot be created: ${locked}, its nearest existing parent, is not writable for this user; create it, or choose a path on a writable volume`,
      ]);
    } finally {
      unlock();
    }
  });

  it('leaves the drop folders alone with the REST adapter, and checks nothing unless asked', async () => {
    writeFileSync(join(dir.path(), 'plain-file'), 'not a folder');
    const rest = `${MINIMAL}erp:\n  adapter: rest\n  file: { outbox: ./plain-file/out }\n  rest: { baseUrl: http://erp.local }\nhttp: { token: a-token-long-enough-4f2e9d }\n`;
    await expect(check(rest)).resolves.toBeDefined();
    await dir.write('config.yaml', withFolders('./plain-file/sync.db', './o', './i'));
    expect(() => loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path() })).not.toThrow();
  });
});
