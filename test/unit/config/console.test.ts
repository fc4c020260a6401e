import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../../src/config/index.js';
import {
  hashPassword,
  parsePasswordHash,
  passwordMatches,
} from '../../../src/shared/passwordHash.js';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { dir, load, problems } = useConfigLoader();

/** A hash of "correct horse", cheaper than `homecare-sync console password` makes them (ln=10). */
const HASH =
  '$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$A9lBa6RTbfBovWqamVIqXKovIl4Vk6OZyVojLJmYmSI';
const TOKEN = '7b1e4c90d2a35f68c0e1';

describe('console config', () => {
  it('is off by default, loopback only, with the bounds the docs name', async () => {
    const { config } = await load(MINIMAL);
    expect(config.console).toEqual({
      enabled: false,
      remote: false,
      users: {},
      sessionMinutes: 480,
      bulkLimit: 500,
      loginAttempts: 5,
      loginWindowMinutes: 15,
    });
  });

  it('takes users with a role and a password hash, and a token per role from a file', async () => {
    await dir.write('operator.token', `${TOKEN}\n`);
    const { config } = await load(`${MINIMAL}console:
  enabled: true
  users:
    alice: { role: operator, passwordHash: "${HASH}" }
    bob: { role: readOnly, passwordHash: "${HASH}" }
  operatorTokenFile: operator.token
`);
    expect(config.console.users).toEqual({
      alice: { role: 'operator', passwordHash: HASH },
      bob: { role: 'readOnly', passwordHash: HASH },
    });
    expect(config.console.operatorToken).toBe(TOKEN);
    const shown = maskSecrets(config).console;
    expect(shown.operatorToken).toBe('***');
    expect(shown.users['alice']?.passwordHash).toBe('***');
  });

  it('lists every problem by its key: no way in, no endpoint, a bad hash, an unknown role, a weak token', async () => {
    expect(await problems(`${MINIMAL}console: { enabled: true }\n`)).toEqual([
      expect.stringMatching(/^console\.users: no one could log in: add a user/),
    ]);
    expect(
      await problems(
        `${MINIMAL}http: { enabled: false }\nconsole: { enabled: true, operatorToken: ${TOKEN} }\n`,
      ),
    ).toEqual([
      'console.enabled: the console is served on the HTTP endpoint: set http.enabled: true as well',
    ]);
    expect(
      await problems(`${MINIMAL}console:
  users:
    alice: { role: admin, passwordHash: "secret" }
    "bad name": { role: operator, passwordHash: "${HASH}" }
  readOnlyToken: changeme
`),
    ).toEqual([
      'console.readOnlyToken: the token is a well-known placeholder, the first value anyone tries; make one with: openssl rand -hex 32',
      'console.users.alice.role: expected operator or readOnly, got "admin"',
      expect.stringMatching(
        /^console\.users\.alice\.passwordHash: not a password hash as `homecare-sync console password` makes it/,
      ),
      expect.stringMatching(/^console\.users\.bad name: a user name is letters, digits/),
    ]);
  });
});

describe('password hashes', () => {
  it('a new hash takes its password and no other', async () => {
    const made = await hashPassword('correct horse');
    expect(made).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/);
    const parsed = parsePasswordHash(made);
    if ('problem' in parsed) throw new Error(parsed.problem);
    expect(await passwordMatches('correct horse', parsed)).toBe(true);
    expect(await passwordMatches('correct horse ', parsed)).toBe(false);
  });

  it('refuses a cost that would take a gigabyte per login', () => {
    expect(parsePasswordHash(HASH.replace('ln=10', 'ln=22'))).toEqual({
      problem: expect.stringMatching(/^scrypt's cost must be ln 10 to 17/) as string,
    });
  });
});
