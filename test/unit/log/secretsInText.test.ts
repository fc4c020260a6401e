import { describe, expect, it } from 'vitest';
import { createLogger, scrubbedFromText } from '../../../src/log/index.js';

function logged(
  secrets: readonly string[],
  write: (logger: ReturnType<typeof createLogger>) => void,
) {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    secrets,
    destination: { write: (line: string) => void lines.push(line) },
  });
  write(logger);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('which secrets are scrubbed from free text', () => {
  it.each([
    ['homecare', false, 'a word'],
    ['12345678', false, 'a number'],
    ['k1', false, 'short'],
    ['pw-1234', false, 'short, though mixed'],
    ['erp-pass-0815', true, 'letters and digits'],
    ['hs-live-4c7e19d2a85b', true, 'a generated key'],
    ['abcdefghijklmnopqrstu', true, 'long'],
  ])('%s: %s (%s)', (secret, scrubbed) => {
    expect(scrubbedFromText(secret)).toBe(scrubbed);
  });
});

describe('a log that a weak platform key cannot mangle', () => {
  it('leaves words that hold the key whole, and still hides it as a field or header value', () => {
    const [started, stopped, pulled] = logged(['homecare'], (logger) => {
      logger.info({ version: '0.1.0' }, 'homecare-sync started');
      logger.info('stopping; restart homecare-sync to go on');
      logger.warn(
        { apiKey: 'homecare', request: { headers: { 'x-api-key': 'homecare' } } },
        'pull of patient failed',
      );
    });
    expect(started).toMatchObject({ msg: 'homecare-sync started' });
    expect(stopped).toMatchObject({ msg: 'stopping; restart homecare-sync to go on' });
    expect(pulled).toMatchObject({
      apiKey: '[redacted]',
      request: { headers: { 'x-api-key': '[redacted]' } },
    });
  });

  it('logs a refused reload’s reasons as they are', () => {
    const problems = [
      'platform.apiKey: variable ADV_UNSET_KEY is not set',
      'alerts.webhook.name: unknown key',
      'http.token: the token has 3 characters, at least 16 are needed',
    ];
    const [line] = logged(['hs-live-4c7e19d2a85b', 'homecare'], (logger) =>
      logger.error(
        { problems },
        `config reload refused, the running config stays: ${problems.join('; ')}`,
      ),
    );
    expect(line).toMatchObject({
      problems,
      msg: `config reload refused, the running config stays: ${problems.join('; ')}`,
    });
  });

  it('still hides a key pair in a header dump or a query', () => {
    const [line] = logged([], (logger) =>
      logger.warn('sent apiKey: k-123 and GET /x?api_key=k-123&status=1'),
    );
    expect(line).toMatchObject({
      msg: 'sent apiKey: [redacted] and GET /x?api_key=[redacted]&status=1',
    });
  });
});
