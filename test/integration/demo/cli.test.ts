import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { builtCli, runCli } from '../../support/cli.js';
import { eventually } from '../../support/eventually.js';
import { demoConfigIn } from '../../support/demo/demoRig.js';

describe('homecare-sync demo', () => {
  let rig: ReturnType<typeof demoConfigIn> | undefined;
  afterEach(() => rig?.cleanup());

  it(
    'shows orders flowing both ways, stops on Ctrl-C and exits 0 by itself',
    { timeout: 120_000 },
    async () => {
      rig = demoConfigIn();
      const child = spawn(
        process.execPath,
        [builtCli(), 'demo', '-c', rig.configPath, '--port', '0'],
        {
          cwd: rig.folder,
          env: { PATH: process.env['PATH'] ?? '' },
          stdio: ['ignore', 'pipe', 'pipe'],
          // Only so that a demo that never stops cannot hang CI; the test fails then.
          timeout: 100_000,
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on('close', (code, signal) => resolve({ code, signal })),
      );

      await eventually(
        () => `an order Delivered by the stand-in ERP; stderr so far:\n${stderr}`,
        () => stderr.includes('Ctrl-C to stop') && /→ Delivered/.test(stderr),
        90_000,
      );
      expect(stderr).toMatch(/platform simulator {2}http:\/\/127\.0\.0\.1:\d+/);
      // The verdicts of the first-contact check come first, as a new installation runs it.
      expect(
        stderr.indexOf('first contact (homecare-sync check --online):'),
      ).toBeGreaterThanOrEqual(0);
      expect(stderr.indexOf('first contact')).toBeLessThan(
        stderr.indexOf('homecare-sync demo, platform'),
      );
      expect(stderr).toContain(`ERP outbox          data/demo/erp/outbox`);
      // The public routes are named as public; the token is named for the ERP's route only.
      expect(stderr).toMatch(
        /daemon endpoint {5}http:\/\/127\.0\.0\.1:\d+ {2}\/healthz \/readyz \/metrics \(no token\); POST \/erp\/<kind> with bearer token \S+\n/,
      );
      child.kill('SIGINT');
      const { code, signal } = await exited;

      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(stderr).toContain('stopping (SIGINT)');
      expect(stderr.trimEnd().endsWith('demo stopped')).toBe(true);
      const lines = stdout.trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(stdout).toContain('homecare-sync stopped');
    },
  );

  it('exits 2 on a variant it does not know', async () => {
    const result = await runCli(['demo', '--variant', 'D']);
    expect(result).toMatchObject({ code: 2, stderr: '--variant must be A, B or C, got "D"\n' });
  });

  it('exits 1 and lists what makes a config unfit for the demo', async () => {
    rig = demoConfigIn((tree) => {
      tree['erp'] = { ...tree['erp'], adapter: 'rest', rest: { baseUrl: 'http://erp.local/api' } };
    });
    const result = await runCli(['demo', '-c', rig.configPath], { cwd: rig.folder });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${rig.configPath} cannot be used for the demo:\n` +
        "  erp.adapter: the demo's stand-in ERP works on the file drop; set it to file\n",
    );
  });
});
