import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { UNREAD_SECRET } from '../../../src/config/secrets.js';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { dir, load, problems } = useConfigLoader();

describe('loadConfig defaults', () => {
  it('fills in every default around the required keys', async () => {
    const { config, source } = await load(MINIMAL);
    expect(source).toBe(join(dir.path(), 'config.yaml'));
    expect(config.platform).toEqual({
      baseUrl: 'https://platform.example/api',
      apiKey: 'key-123',
      variant: 'B',
      timeoutMs: 30_000,
      concurrency: 4,
      readRetry: { attempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 },
      paths: { postalCode: '/postalCode', attachmentDownload: '/attachment/{id}' },
    });
    expect(config.storage.path).toBe('./data/homecare-sync.db');
    expect(config.sync).toEqual({
      overlapSeconds: 120,
      createdLookbackDays: 30,
      jitterSeconds: 10,
      batchSize: 500,
      maxListBytes: 402_653_184,
      maxRecordBytes: 16_777_216,
      maxListSeconds: 900,
      reconcile: { enabled: true, schedule: '30 2 * * *', days: 7 },
      resources: {},
    });
    expect(config.erp).toEqual({
      adapter: 'file',
      file: {
        outbox: './erp/outbox',
        inbox: './erp/inbox',
        format: 'json',
        openTrans: false,
        openTransParties: { buyerId: 'homecare-platform', supplierId: 'supplier' },
        doneMarker: false,
        minFileAgeMs: 2_000,
        maxFileBytes: 52_428_800,
        charset: 'utf-8',
        csvAllOrNothing: false,
        scanIntervalMs: 5_000,
        fileMode: '0640',
        csv: {
          delimiter: ',',
          quote: '"',
          quoting: 'asNeeded',
          header: true,
          encoding: 'utf-8',
          decimalComma: false,
          dateFormat: 'iso',
          timeZone: 'Europe/Berlin',
          lineEnding: 'lf',
          columns: {},
        },
        mapping: {},
        inboxMapping: {},
        valueTables: {},
      },
    });
    expect(config.retry).toEqual({ maxAttempts: 12, baseDelayMs: 1_000, maxDelayMs: 900_000 });
    expect(config.queue).toEqual({
      concurrency: 4,
      pollIntervalMs: 1_000,
      weights: {
        singleOrder: 8,
        directOrder: 8,
        erpOrder: 8,
        integratedCare: 4,
        patient: 4,
        article: 4,
        default: 1,
      },
    });
    expect(config.http).toEqual({
      enabled: true,
      host: '127.0.0.1',
      port: 9464,
      bodyLimitBytes: 1_048_576,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 5_000,
      maxConnections: 1_024,
      readyToleratedIntervals: 3,
      readyCheckSeconds: 30,
      readyStalledMinutes: 60,
    });
    expect(config.log).toEqual({ level: 'info', format: 'auto' });
    expect(config.timezone).toBe('UTC');
  });

  it('keeps what the file says over the defaults', async () => {
    const { config } = await load(`${MINIMAL}
  paths: { postalCode: /plz }
sync:
  resources:
    singleOrder: { schedule: "*/2 * * * *", statuses: [created] }
    article: { enabled: false }
log: { level: debug }
`);
    expect(config.platform.paths).toEqual({
      postalCode: '/plz',
      attachmentDownload: '/attachment/{id}',
    });
    expect(config.sync.resources.singleOrder).toEqual({
      schedule: '*/2 * * * *',
      statuses: ['created'],
    });
    expect(config.sync.resources.article).toEqual({ enabled: false });
    expect(config.log.level).toBe('debug');
  });
});

describe('environment substitution', () => {
  it('replaces ${VAR} and ${VAR:-default} in every string value', async () => {
    const { config } = await load(
      `
platform:
  baseUrl: \${BASE:-https://fallback.example}/api
  apiKey: \${KEY}
  variant: \${VARIANT:-C}
storage: { path: "\${DATA}/x.db" }
http: { port: "\${PORT:-9000}", enabled: "\${HTTP_ON:-false}" }
`,
      { KEY: 'from-env', DATA: '/var/lib/hs', VARIANT: '' },
    );
    expect(config.platform.baseUrl).toBe('https://fallback.example/api');
    expect(config.platform.apiKey).toBe('from-env');
    expect(config.platform.variant).toBe('C');
    expect(config.storage.path).toBe('/var/lib/hs/x.db');
    expect(config.http.port).toBe(9000);
    expect(config.http.enabled).toBe(false);
  });

  it('keeps $${ as a literal ${', async () => {
    const { config } = await load(MINIMAL.replace('key-123', () => 'a$${b}c'));
    expect(config.platform.apiKey).toBe('a${b}c');
  });

  it('names the unset variable and the config path that uses it', async () => {
    const found = await problems(MINIMAL.replace('key-123', '${HOMECARE_API_KEY}'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^platform\.apiKey: environment variable HOMECARE_API_KEY is not set/);
  });

  it('reports an unset variable in a number once, not again as a wrong type', async () => {
    const found = await problems(`${MINIMAL}http:\n  port: \${HTTP_PORT}\n`);
    expect(found).toEqual([
      expect.stringMatching(/^http\.port: environment variable HTTP_PORT is not set/),
    ]);
  });

  it('refuses a reference that is not closed or not a name', async () => {
    const found = await problems(
      `${MINIMAL}storage: { path: "\${DATA" }\nlog: { level: "\${1x}" }\n`,
    );
    expect(found).toEqual([
      expect.stringMatching(/^storage\.path: "\$\{" without a closing "\}"/),
      expect.stringMatching(/^log\.level: "\$\{1x\}" is not a variable reference/),
    ]);
  });
});

describe('secret files', () => {
  it('reads apiKeyFile, tokenFile and passwordFile, trimming the trailing newline', async () => {
    await dir.write('api.key', 'from-file\n');
    await dir.write('http.token', 'http-secret-from-file\r\n');
    await dir.write('erp.password', 'erp-pass\n');
    const { config } = await load(`
platform: { baseUrl: "https://p.example", apiKeyFile: api.key, variant: A }
http: { tokenFile: ${join(dir.path(), 'http.token')} }
erp:
  rest:
    baseUrl: http://erp.local
    auth: { type: basic, username: sync, passwordFile: erp.password }
`);
    expect(config.platform.apiKey).toBe('from-file');
    expect(config.platform.apiKeyFile).toBe('api.key');
    expect(config.http.token).toBe('http-secret-from-file');
    expect(config.erp.rest?.auth?.password).toBe('erp-pass');
  });

  it('names the key and the file when the file is missing', async () => {
    const found = await problems(`
platform: { baseUrl: "https://p.example", apiKeyFile: /run/secrets/nope, variant: A }
`);
    expect(found).toEqual([
      'platform.apiKey: cannot read platform.apiKeyFile /run/secrets/nope: the file does not exist; mount the secret there',
    ]);
  });

  it('refuses a value and its file together', async () => {
    await dir.write('token', 'x\n');
    const found = await problems(`${MINIMAL}http: { token: abc, tokenFile: token }\n`);
    expect(found).toEqual(['http.token: give either token or tokenFile, not both']);
  });

  it('refuses an empty secret file', async () => {
    await dir.write('api.key', '\n');
    const found = await problems(`
platform: { baseUrl: "https://p.example", apiKeyFile: api.key, variant: A }
`);
    expect(found).toEqual([expect.stringContaining('api.key: the file is empty')]);
  });
});

describe('ERP file and REST settings', () => {
  it('takes German CSV habits, per-resource columns and REST URLs', async () => {
    const { config } = await load(`${MINIMAL}
erp:
  adapter: rest
  file:
    format: csv
    csv: { delimiter: ";", encoding: utf-8-bom, decimalComma: true, columns: { singleOrder: [_id, salesId] } }
  rest:
    baseUrl: http://erp.local/api
    auth: { type: bearer, token: t }
    resources: { singleOrder: { url: "orders/{_id}", method: PUT } }
http: { token: inbound-token-5e0c7b19 }
`);
    expect(config.erp.file.csv).toMatchObject({
      delimiter: ';',
      encoding: 'utf-8-bom',
      decimalComma: true,
    });
    expect(config.erp.file.csv.columns.singleOrder).toEqual(['_id', 'salesId']);
    expect(config.erp.rest?.resources.singleOrder).toEqual({ url: 'orders/{_id}', method: 'PUT' });
  });

  it('names an unknown resource and a wrong CSV encoding by path', async () => {
    const error: unknown = await load(`${MINIMAL}
erp:
  file:
    csv: { encoding: latin9, columns: { invoice: [a] } }
`).catch((e: unknown) => e);
    const problems = (error as { problems?: string[] }).problems ?? [];
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^erp\.file\.csv\.encoding: /);
    expect(problems[1]).toMatch(/^erp\.file\.csv\.columns\.invoice: unknown key/);
  });
});

describe('loading without the secrets (commands that only use the database)', () => {
  it('neither substitutes nor reads a secret, and still checks everything else', async () => {
    await dir.write(
      'config.yaml',
      `
platform: { baseUrl: "https://p.example", apiKey: "\${HOMECARE_API_KEY}", variant: A }
http: { tokenFile: /run/secrets/nope }
erp:
  adapter: rest
  rest:
    baseUrl: http://erp.local
    auth: { type: basic, username: sync, passwordFile: /run/secrets/nope }
storage: { path: "\${DATA_DIR:-/data}/sync.db" }
`,
    );
    const { config } = loadConfig({
      path: 'config.yaml',
      env: {},
      cwd: dir.path(),
      secrets: 'skip',
    });
    expect(config.platform.apiKey).toBe(UNREAD_SECRET);
    expect(config.http.token).toBe(UNREAD_SECRET);
    expect(config.erp.rest?.auth?.password).toBe(UNREAD_SECRET);
    expect(config.storage.path).toBe('/data/sync.db');

    await dir.write('config.yaml', 'platform: { baseUrl: nope, apiKey: "${X}", variant: A }\n');
    expect(() =>
      loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path(), secrets: 'skip' }),
    ).toThrow(/platform\.baseUrl: expected an http/);
  });
});

describe('files every user may read', () => {
  it('warns about a world-readable config file and secret file, and not about owner-only ones', async () => {
    const key = await dir.write('api.key', 'from-file-7c41\n');
    const yaml = `platform: { baseUrl: "https://p.example", apiKeyFile: api.key, variant: A }\nhttp: { token: inbound-token-5e0c7b19 }\n`;
    const config = join(dir.path(), 'config.yaml');
    chmodSync(key, 0o644);
    await dir.write('config.yaml', yaml);
    chmodSync(config, 0o644);
    const loaded = loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path() });
    expect(loaded.warnings).toEqual([
      `the config file ${config} may be read by every user on this machine (mode 644) and holds http.token written in it: chmod o-r ${config}, or give it as \${VAR} or in a <key>File`,
      `platform.apiKeyFile ${key} may be read by every user on this machine (mode 644) and holds a secret: chmod o-r ${key}`,
    ]);

    chmodSync(key, 0o640);
    chmodSync(config, 0o600);
    expect(loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path() }).warnings).toEqual([]);
  });

  it('leaves a world-readable config alone when its secrets come from the environment', async () => {
    await dir.write('config.yaml', `${MINIMAL.replace('key-123', '${API_KEY}')}`);
    chmodSync(join(dir.path(), 'config.yaml'), 0o644);
    const loaded = loadConfig({
      path: 'config.yaml',
      env: { API_KEY: 'key-from-env-7c41' },
      cwd: dir.path(),
    });
    expect(loaded.warnings).toEqual([]);
  });

  // A Kubernetes ConfigMap is mounted 0644 and read by status, queue list and the like, which
  // skip the secrets: a file that only names ${VAR}s and <key>Files exposes nothing.
  it('leaves a world-readable config alone that names its secrets only by ${VAR} and <key>File, whether or not the command reads them', async () => {
    const config = await dir.write(
      'config.yaml',
      `platform: { baseUrl: "https://p.example", apiKeyFile: /run/secrets/homecare-sync/apiKey, variant: A }
http: { token: "\${HOMECARE_SYNC_TOKEN}" }
erp:
  adapter: rest
  rest:
    baseUrl: http://erp.local
    auth: { type: basic, username: sync, password: "\${ERP_PASSWORD:-}" }
`,
    );
    chmodSync(config, 0o644);
    const skipping = loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path(), secrets: 'skip' });
    expect(skipping.warnings).toEqual([]);
  });

  it('warns about a world-readable config with a secret written in it, naming each, also for commands that skip the secrets', async () => {
    const config = await dir.write(
      'config.yaml',
      `platform: { baseUrl: "https://p.example", apiKey: inline-key-0a1b2c3d4e, variant: A }
http: { token: "\${HOMECARE_SYNC_TOKEN:-default-token-written-here}" }
`,
    );
    chmodSync(config, 0o644);
    const skipping = loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path(), secrets: 'skip' });
    expect(skipping.warnings).toEqual([
      `the config file ${config} may be read by every user on this machine (mode 644) and holds platform.apiKey, http.token written in it: chmod o-r ${config}, or give them as \${VAR} or in a <key>File`,
    ]);
  });

  it('counts an SMTP URL as a secret written in the file only when a password stands in it', async () => {
    const mail = (smtp: string) =>
      `platform: { baseUrl: "https://p.example", apiKeyFile: /run/secrets/apiKey, variant: A }
alerts:
  mail: { smtp: "${smtp}", from: homecare-sync@example.com, to: [it@example.com] }
`;
    const warnings = async (smtp: string) => {
      chmodSync(await dir.write('config.yaml', mail(smtp)), 0o644);
      return loadConfig({ path: 'config.yaml', env: {}, cwd: dir.path(), secrets: 'skip' })
        .warnings;
    };
    expect(await warnings('smtp://mail.local:25')).toEqual([]);
    expect(await warnings('smtp://${SMTP_USER}:${SMTP_PASSWORD}@mail.local:587')).toEqual([]);
    expect(await warnings('smtp://alerts:written-here@mail.local:587')).toEqual([
      expect.stringContaining('holds alerts.mail.smtp written in it'),
    ]);
  });
});
