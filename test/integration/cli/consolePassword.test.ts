import { describe, expect, it } from 'vitest';
import { parsePasswordHash, passwordMatches } from '../../../src/shared/passwordHash.js';
import { runCli } from '../../support/cli.js';

/** `console password`: the hash a console user's config entry takes (issue 40, item 5). */
describe('homecare-sync console password', () => {
  it('prints the hash of the password piped in, which the config takes and a login checks', async () => {
    const result = await runCli(['console', 'password'], { input: 'a long console password\n' });
    expect(result.code, result.stderr).toBe(0);
    const hash = result.stdout.trim();
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(result.stderr).toContain('console.users.<name>.passwordHash');
    const parsed = parsePasswordHash(hash);
    if ('problem' in parsed) throw new Error(parsed.problem);
    expect(await passwordMatches('a long console password', parsed)).toBe(true);
  });

  it('refuses a short password and makes nothing', async () => {
    const result = await runCli(['console', 'password'], { input: 'short\n' });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('at least 12 characters');
  });
});
