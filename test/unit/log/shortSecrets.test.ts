import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';

// As a new user configured it (issue #29): `http.token: t`, `platform.apiKey: k1`.
const shortSecrets = ['t', 'k1'];
const apiKey = 'hc-live-7f3a9c2e41b84d6f';
const erpPassword = 'erp-pass-0815';
const longSecrets = [apiKey, erpPassword];

/** Every line the real logger writes for what a daemon logs around its secrets, parsed. */
function logAroundSecrets(): { text: string; lines: unknown[] } {
  const written: string[] = [];
  const logger = createLogger({
    level: 'debug',
    secrets: [...shortSecrets, ...longSecrets],
    destination: { write: (line: string) => void written.push(line) },
  });
  logger.error(
    { path: '/tmp/homecare/sync.db' },
    'database /tmp/homecare/sync.db cannot be written',
  );
  logger.warn(
    {
      url: `https://platform.example/api/keys/${apiKey}/patient`,
      apiKey: 'k1',
      request: { headers: { authorization: 'Bearer t', 'service-api-key': 'k1' } },
    },
    'pull failed, it will be retried',
  );
  logger.child({ token: 't' }).info('endpoint listening at http://127.0.0.1:9464');
  logger.error({
    err: Object.assign(new Error(`the ERP refused the login with ${erpPassword}`), {
      password: erpPassword,
      token: 't',
    }),
  });
  return { text: written.join(''), lines: written.map((line) => JSON.parse(line) as unknown) };
}

/** The values of every field at any depth, as [key, value]. */
function fields(value: unknown): [string, unknown][] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [[key, item], ...fields(item)]);
}

describe('secrets of every length in the log', () => {
  let logged: { text: string; lines: unknown[] };
  beforeAll(() => {
    logged = logAroundSecrets();
  });

  it('masks the long ones wherever they stand, also inside a URL or a message', () => {
    for (const secret of longSecrets) expect(logged.text).not.toContain(secret);
    expect(logged.lines[1]).toMatchObject({
      url: 'https://platform.example/api/keys/[redacted]/patient',
    });
    expect(logged.lines[3]).toMatchObject({
      err: { message: 'the ERP refused the login with [redacted]' },
    });
  });

  it('never writes a short one as a field value', () => {
    for (const [key, value] of logged.lines.flatMap(fields)) {
      expect(shortSecrets, `field ${key}`).not.toContain(value);
    }
    expect(logged.lines[1]).toMatchObject({
      apiKey: '[redacted]',
      request: { headers: { authorization: '[redacted]', 'service-api-key': '[redacted]' } },
    });
    expect(logged.lines[2]).toMatchObject({ token: '[redacted]' });
  });

  it('leaves ordinary words and paths alone', () => {
    expect(logged.lines[0]).toMatchObject({
      msg: 'database /tmp/homecare/sync.db cannot be written',
      path: '/tmp/homecare/sync.db',
    });
    expect(logged.lines[1]).toMatchObject({ msg: 'pull failed, it will be retried' });
    expect(logged.lines[2]).toMatchObject({ msg: 'endpoint listening at http://127.0.0.1:9464' });
    expect(logged.text).not.toMatch(/\w\[redacted\]\w/);
  });
});
