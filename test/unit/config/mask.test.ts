import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createLogger } from '../../../src/log/index.js';
import { loadConfig, maskSecrets, secretValues } from '../../../src/config/index.js';
import { useTempDir } from '../../support/config/tempDir.js';

const dir = useTempDir();

describe('maskSecrets', () => {
  it('hides every secret value, also those read from files, and keeps the file paths', async () => {
    await dir.write('api.key', 'api-key-from-file-4711\n');
    await dir.write('erp.password', 'erp-password-0815\n');
    await dir.write(
      'config.yaml',
      `
platform:
  baseUrl: https://sync:url-password-42@platform.example/api
  apiKeyFile: api.key
  variant: B
http: { token: http-token-1234-5678 }
erp:
  adapter: rest
  rest:
    baseUrl: http://erp.local/api
    auth: { type: basic, username: sync-user, passwordFile: erp.password }
`,
    );
    const { config } = loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path() });
    const printed = stringify(maskSecrets(config));

    for (const secret of ['api-key-from-file-4711', 'erp-password-0815', 'http-token-1234-5678']) {
      expect(printed).not.toContain(secret);
    }
    expect(printed).not.toContain('url-password-42');
    expect(printed).toContain('apiKeyFile: api.key');
    expect(printed).toContain('passwordFile: erp.password');
    expect(printed).toContain('username: sync-user');

    const masked = maskSecrets(config);
    expect(masked.platform.apiKey).toBe('***');
    expect(masked.http.token).toBe('***');
    expect(masked.erp.rest?.auth?.password).toBe('***');
    expect(masked.platform.baseUrl).toBe('https://sync:***@platform.example/api');
  });

  it('leaves the config it was given unchanged and adds no secret that was not set', async () => {
    await dir.write(
      'config.yaml',
      'platform: { baseUrl: "https://p.example", apiKey: plain-key, variant: A }\n',
    );
    const { config } = loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path() });
    const masked = maskSecrets(config);
    expect(config.platform.apiKey).toBe('plain-key');
    expect(masked.http).not.toHaveProperty('token');
    expect(masked.erp).not.toHaveProperty('rest');
  });

  it('hides the SMTP URL of alerts.mail, and its password in the log, also from smtpFile', async () => {
    await dir.write('smtp.url', 'smtp://alerts:mail%2Fpass-2718@mail.example:587\n');
    await dir.write(
      'config.yaml',
      `
platform: { baseUrl: "https://p.example", apiKey: plain-key-31415, variant: B }
alerts:
  mail: { smtpFile: smtp.url, from: homecare-sync@example.com, to: [it@example.com] }
`,
    );
    const { config } = loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path() });
    const masked = maskSecrets(config);
    expect(masked.alerts?.mail).toMatchObject({ smtp: '***', smtpFile: 'smtp.url' });
    expect(stringify(masked)).not.toContain('mail%2Fpass-2718');

    // The logger is given these: a line that quotes the URL or the password (decoded) hides both.
    expect(secretValues(config)).toContain('mail/pass-2718');
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      secrets: secretValues(config),
      destination: { write: (line: string) => void lines.push(line) },
    });
    logger.warn(`could not reach ${config.alerts?.mail?.smtp ?? ''}; login mail/pass-2718`);
    expect(lines.join('')).not.toMatch(/pass-2718|mail\.example/);
  });
});
