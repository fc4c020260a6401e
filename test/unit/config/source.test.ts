import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveConfigPath } from '../../../src/config/index.js';
import { useTempDir } from '../../support/config/tempDir.js';

const dir = useTempDir();

function problemsOf(path: string | undefined, env: Record<string, string> = {}): readonly string[] {
  try {
    loadConfig({ path, env, cwd: dir.path() });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected the config to be refused');
}

describe('resolveConfigPath', () => {
  it('takes the option, else HOMECARE_SYNC_CONFIG, else ./config/homecare-sync.yaml', () => {
    const env = { HOMECARE_SYNC_CONFIG: '/etc/hs.yaml' };
    expect(resolveConfigPath('my.yaml', env, '/srv')).toEqual({
      path: '/srv/my.yaml',
      from: 'option',
    });
    expect(resolveConfigPath(undefined, env, '/srv')).toEqual({
      path: '/etc/hs.yaml',
      from: 'environment',
    });
    expect(resolveConfigPath(undefined, { HOMECARE_SYNC_CONFIG: '' }, '/srv')).toEqual({
      path: '/srv/config/homecare-sync.yaml',
      from: 'default',
    });
  });
});

describe('reading the file', () => {
  it('says the file does not exist and how its path was chosen', () => {
    expect(problemsOf('missing.yaml')).toEqual([
      'missing.yaml: the file does not exist (given with -c/--config)',
    ]);
    expect(problemsOf(undefined)).toEqual([
      'config/homecare-sync.yaml: the file does not exist (the default; pass -c <file> or set HOMECARE_SYNC_CONFIG)',
    ]);
    expect(problemsOf(undefined, { HOMECARE_SYNC_CONFIG: 'env.yaml' })).toEqual([
      'env.yaml: the file does not exist (from HOMECARE_SYNC_CONFIG)',
    ]);
  });

  it('says when the path is a directory', async () => {
    await mkdir(join(dir.path(), 'conf'));
    expect(problemsOf('conf')).toEqual(['conf: that is a directory; name the YAML file in it']);
  });

  it('gives the line of invalid YAML', async () => {
    await dir.write('bad.yaml', 'platform:\n  baseUrl: x\n  variant: B\n   apiKey: k\nlog: [\n');
    const problems = problemsOf('bad.yaml');
    expect(problems.length).toBeGreaterThan(0);
    expect(problems[0]).toMatch(/^bad\.yaml line 3, column \d+: invalid YAML: /);
  });

  it('hints at quoting when ${VAR} stands inside a flow mapping', async () => {
    await dir.write('flow.yaml', 'log: { level: info }\nhttp: { token: ${TOKEN} }\n');
    const problems = problemsOf('flow.yaml', { TOKEN: 't' });
    expect(problems[0]).toMatch(/^flow\.yaml line 2, column \d+: invalid YAML: .*must be quoted/);
  });

  it('refuses an empty file and one with only comments', async () => {
    await dir.write('empty.yaml', '');
    await dir.write('comments.yaml', '# nothing yet\n');
    expect(problemsOf('empty.yaml')).toEqual([
      'empty.yaml: the file is empty; start from config/example.yaml',
    ]);
    expect(problemsOf('comments.yaml')).toEqual([
      'comments.yaml: the file is empty; start from config/example.yaml',
    ]);
  });

  it('refuses a file whose top level is not a mapping', async () => {
    await dir.write('list.yaml', '- platform\n- storage\n');
    expect(problemsOf('list.yaml')).toEqual([
      expect.stringMatching(/^list\.yaml: expected a mapping of sections/),
    ]);
  });

  it('puts the file and the problem count in the message', async () => {
    await dir.write('two.yaml', 'platform: { variant: Q }\n');
    try {
      loadConfig({ path: 'two.yaml', env: {}, cwd: dir.path() });
      expect.unreachable();
    } catch (error) {
      const configError = error as ConfigError;
      expect(configError.headline).toBe('config two.yaml has 3 problem(s):');
      expect(configError.message).toContain('platform.variant: expected A, B or C, got "Q"');
      expect(configError.code).toBe('CONFIG');
    }
  });
});

describe('a YAML bomb ("billion laughs")', () => {
  it('is one clear problem, not a stack', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [i, name] of ['b', 'c', 'd', 'e', 'f', 'g'].entries()) {
      const previous = String.fromCharCode('a'.charCodeAt(0) + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(', ')}]`);
    }
    await dir.write('bomb.yaml', `${levels.join('\n')}\n`);
    expect(problemsOf('bomb.yaml')).toEqual([
      'bomb.yaml: its aliases (*name) expand to too much (more than 100 uses): write the values out, or use fewer aliases',
    ]);
  });
});
