import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cli.js';

const RUNBOOK = readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8');

/** The lines of the first ```sh block after `heading` in the runbook. */
function shellBlockAfter(heading: string): string[] {
  const start = RUNBOOK.indexOf(heading);
  if (start < 0) throw new Error(`docs/operations.md has no ${heading}`);
  const block = /```sh\n([\s\S]*?)\n```/.exec(RUNBOOK.slice(start))?.[1];
  if (block === undefined) throw new Error(`no sh block after ${heading}`);
  return block.split('\n');
}

function git(...args: string[]): string {
  const result = spawnSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/**
 * deploy/ as a fresh clone has it: the files git would commit (tracked, or new and not
 * ignored), so an ignored or missing deploy/secrets/ on this machine cannot hide a step that
 * fails on a clone.
 */
function freshDeployCopy(): string {
  const folder = mkdtempSync(join(tmpdir(), 'homecare-deploy-steps-'));
  const files = git('ls-files', '--cached', '--others', '--exclude-standard', '--', 'deploy')
    .split('\n')
    .filter((path) => path !== '');
  for (const path of files) cpSync(join(REPO_ROOT, path), join(folder, path));
  return folder;
}

describe('the Docker Compose steps of docs/operations.md', () => {
  const lines = shellBlockAfter('**Docker Compose**');
  // The steps before Docker: they prepare the secret and the environment on this machine.
  const preparing = lines.filter((line) => !line.startsWith('docker '));
  let folder: string | undefined;
  afterEach(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  });

  it('writes the API key where the Compose file reads it, readable only by its owner, on a fresh clone', () => {
    expect(preparing.some((line) => line.includes('deploy/secrets/apiKey'))).toBe(true);
    folder = freshDeployCopy();
    const run = spawnSync(
      'bash',
      ['--norc', '--noprofile', '-euo', 'pipefail', '-c', preparing.join('\n')],
      {
        cwd: folder,
        input: 'the-platform-key\n',
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '' },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);

    const compose = readFileSync(join(folder, 'deploy/docker-compose.yml'), 'utf8');
    expect(compose).toMatch(/file: \.\/secrets\/apiKey\n/);
    const key = join(folder, 'deploy/secrets/apiKey');
    expect(readFileSync(key, 'utf8')).toBe('the-platform-key');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(folder, 'deploy/.env'), 'utf8')).toMatch(/^HOMECARE_PLATFORM_URL=/);
  });

  it('leaves the key and the environment out of git', () => {
    // check-ignore answers for paths that do not exist, so the step need not have run here.
    const ignored = git('check-ignore', 'deploy/secrets/apiKey', 'deploy/.env').split('\n');
    expect(ignored).toEqual(['deploy/secrets/apiKey', 'deploy/.env', '']);
  });
});
