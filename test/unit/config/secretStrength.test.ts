import { describe, expect, it } from 'vitest';
import { MINIMAL, useConfigLoader } from '../../support/config/tempDir.js';

const { dir, load, problems } = useConfigLoader();

const GOOD_TOKEN = '3f9c0a7e52b14d68';
const SHORT_API_KEY = /^platform\.apiKey has only \d+ characters?:/;

describe('http.token strength', () => {
  it('refuses a token shorter than 16 characters, naming the key and how to make one', async () => {
    const found = await problems(`${MINIMAL}http: { token: "3f9c0a7e52b14d6" }\n`);
    expect(found).toEqual([
      'http.token: the token has 15 characters, at least 16 are needed: a short bearer token is guessed in a handful of requests; make one with: openssl rand -hex 32',
    ]);
  });

  it('takes a random token of 16 characters', async () => {
    const { config } = await load(`${MINIMAL}http: { token: "${GOOD_TOKEN}" }\n`);
    expect(config.http.token).toBe(GOOD_TOKEN);
  });

  it.each([
    'changeme',
    'Change-Me',
    'SECRET',
    'demo-token',
    'x'.repeat(32),
    'changeme-in-production',
  ])('refuses the placeholder %s without repeating it', async (token) => {
    const found = await problems(`${MINIMAL}http: { token: "${token}" }\n`);
    expect(found).toEqual([
      'http.token: the token is a well-known placeholder, the first value anyone tries; make one with: openssl rand -hex 32',
    ]);
  });

  it('checks a token read from http.tokenFile the same way, saying where it came from', async () => {
    await dir.write('endpoint.token', 'password\n');
    const found = await problems(`${MINIMAL}http: { tokenFile: endpoint.token }\n`);
    expect(found).toEqual([
      'http.token: the token read from http.tokenFile is a well-known placeholder, the first value anyone tries; make one with: openssl rand -hex 32',
    ]);
    await dir.write('endpoint.token', 'abc123\n');
    expect(await problems(`${MINIMAL}http: { tokenFile: endpoint.token }\n`)).toEqual([
      expect.stringMatching(/^http\.token: the token read from http\.tokenFile has 6 characters/),
    ]);
  });

  it('lists a weak token with every other problem at once', async () => {
    const found = await problems(`
platform: { baseUrl: "https://platform.example/api", apiKey: key-1234, variant: D }
http: { token: t }
`);
    expect(found).toEqual([
      expect.stringMatching(/^http\.token: the token has 1 character,/),
      'platform.variant: expected A, B or C, got "D"',
    ]);
  });
});

describe('platform.apiKey strength', () => {
  it('warns about a key shorter than 8 characters, and still loads the config', async () => {
    const { config, warnings } = await load(MINIMAL.replace('key-123', 'k1'));
    expect(config.platform.apiKey).toBe('k1');
    expect(warnings).toContainEqual(
      'platform.apiKey has only 2 characters: a key this short is easy to guess, and the log masks it only as the value of a field such as apiKey, not inside other text; ask the platform for a longer one if it can issue one',
    );
  });

  it('warns about a short key read from platform.apiKeyFile too', async () => {
    await dir.write('api.key', 'k-77\n');
    const { warnings } = await load(
      'platform: { baseUrl: "https://platform.example/api", apiKeyFile: api.key, variant: B }\n',
    );
    expect(warnings).toContainEqual(expect.stringMatching(SHORT_API_KEY));
  });

  it('says nothing about a key of 8 characters', async () => {
    const { warnings } = await load(MINIMAL.replace('key-123', 'key-1234'));
    expect(warnings).not.toContainEqual(expect.stringMatching(SHORT_API_KEY));
  });
});
