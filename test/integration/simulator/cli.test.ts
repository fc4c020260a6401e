import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { builtCli, REPO_ROOT } from '../../support/cli.js';

describe('homecare-sync simulator', () => {
  it('prints one line `listening on <url>`, serves the variant and stops on SIGTERM', async () => {
    const args = ['simulator', '--port', '0', '--variant', 'C', '--seed', '3', '--articles', '5'];
    const child = spawn(process.execPath, [builtCli(), ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env['PATH'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const match = /^listening on (http:\/\/\S+)\n/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('close', () => reject(new Error(`exited before listening: ${stdout}`)));
    });
    const mapping = await fetch(`${url}/patient/customerMapping?customerId=none`, {
      headers: { 'service-api-key': 'demo-key' },
    });
    expect(mapping.status).toBe(404);
    const articles = await fetch(`${url}/article?updatedAfter=2000-01-01T00:00:00Z`, {
      headers: { 'service-api-key': 'demo-key' },
    });
    expect(((await articles.json()) as unknown[]).length).toBeLessThanOrEqual(5);
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    expect(stdout).toBe(`listening on ${url}\n`);
  });

  it('refuses an unknown variant with a usage error', async () => {
    const child = spawn(
      process.execPath,
      [builtCli(), 'simulator', '--port', '0', '--variant', 'D'],
      { cwd: REPO_ROOT, env: { PATH: process.env['PATH'] ?? '' }, timeout: 60_000 },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--variant must be A, B or C');
  });

  it('takes --loop-suppression next or until-changed, and refuses another value', async () => {
    const child = spawn(
      process.execPath,
      [builtCli(), 'simulator', '--port', '0', '--loop-suppression', 'never'],
      { cwd: REPO_ROOT, env: { PATH: process.env['PATH'] ?? '' }, timeout: 60_000 },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('--loop-suppression must be next or until-changed, got "never"');
  });
});
