import { describe, expect, it } from 'vitest';
import { useConfigLoader } from '../../support/config/tempDir.js';

const { dir, load, problems } = useConfigLoader();

const KEY = 'hs-live-4c7e19d2a85b';
const TOKEN = '3f9c0a7e52b14d68a1';
const WITH_ENV = `
platform: { baseUrl: "https://platform.example/api", apiKey: "\${KEY}", variant: B }
http: { token: "\${TOKEN}" }
`;
const WITH_FILES = `
platform: { baseUrl: "https://platform.example/api", apiKeyFile: api.key, variant: B }
http: { tokenFile: http.token }
`;

describe('tokens and keys that can never match', () => {
  it.each([
    [`${KEY} `, 'platform.apiKey: the key holds a space (character 21)'],
    [`${KEY.slice(0, 5)}\t${KEY.slice(5)}`, 'platform.apiKey: the key holds a tab (character 6)'],
    [`${KEY}\u00a0`, 'platform.apiKey: the key holds a no-break space (character 21)'],
    [`${KEY}\r`, 'platform.apiKey: the key holds a control character (U+000D, character 21)'],
    [`${KEY}ä`, 'platform.apiKey: the key holds a character outside ASCII (ä, character 21)'],
  ])('refuses the key %j, saying why without showing it', async (key, reason) => {
    const found = await problems(WITH_ENV, { KEY: key, TOKEN });
    expect(found).toEqual([expect.stringContaining(reason)]);
    expect(found[0]).toContain('a header cannot carry it');
    expect(found[0]).not.toContain(KEY);
  });

  it('refuses such an http.token too, and takes the good ones', async () => {
    expect(await problems(WITH_ENV, { KEY, TOKEN: `${TOKEN} x` })).toEqual([
      expect.stringMatching(/^http\.token: the token holds a space \(character 19\)/),
    ]);
    const { config } = await load(WITH_ENV, { KEY, TOKEN });
    expect(config.platform.apiKey).toBe(KEY);
  });
});

describe('secret files: one trailing newline is all that is taken off', () => {
  it.each([
    [`${KEY}\n`, undefined],
    [`${KEY}\r\n`, undefined],
    [KEY, undefined],
    [`${KEY}\n\n`, 'platform.apiKey: platform.apiKeyFile ends in a blank line'],
    [`${KEY} \n`, 'platform.apiKey: the key read from platform.apiKeyFile holds a space'],
    [`\n${KEY}\n`, 'platform.apiKey: platform.apiKeyFile starts with a blank line'],
    [`${KEY}\nsecond\n`, 'platform.apiKey: platform.apiKeyFile holds more than one line'],
  ])('%j', async (text, problem) => {
    await dir.write('api.key', text);
    await dir.write('http.token', `${TOKEN}\n`);
    if (problem === undefined) {
      const { config } = await load(WITH_FILES);
      expect(config.platform.apiKey).toBe(KEY);
      expect(config.http.token).toBe(TOKEN);
    } else {
      expect(await problems(WITH_FILES)).toEqual([expect.stringContaining(problem)]);
    }
  });
});

describe('a weak key the platform issued', () => {
  it('is warned about, never refused, when it is a word', async () => {
    const { config, warnings } = await load(WITH_ENV, { KEY: 'homecare', TOKEN });
    expect(config.platform.apiKey).toBe('homecare');
    expect(warnings).toContainEqual(
      expect.stringMatching(/^platform\.apiKey is a word or a number of 8 characters: /),
    );
  });
});
