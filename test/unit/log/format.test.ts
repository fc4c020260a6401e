import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';

function capture(format: 'auto' | 'json' | 'pretty', isTerminal: boolean): string[] {
  const out: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Colours (on a terminal) stripped, so the test reads the text.
      out.push(stripVTControlCharacters(chunk.toString('utf8')));
      done();
    },
  });
  const logger = createLogger({
    level: 'info',
    format,
    isTerminal,
    destination,
    secrets: ['s3cr3t-4f9a1c0d'],
  });
  logger.info(
    { apiKey: 's3cr3t-4f9a1c0d', resource: 'singleOrder' },
    'pull finished with s3cr3t-4f9a1c0d',
  );
  return out;
}

describe('log format', () => {
  it('prints lines for a person on a terminal, still redacted', () => {
    const text = capture('auto', true).join('');
    expect(() => JSON.parse(text) as unknown).toThrow();
    expect(text).toMatch(/INFO.*pull finished with \[redacted\]/);
    expect(text).toContain('resource: "singleOrder"');
    expect(text).not.toContain('s3cr3t-4f9a1c0d');
  });

  it('writes JSON lines when the output is no terminal, or when asked to', () => {
    for (const [format, terminal] of [
      ['auto', false],
      ['json', true],
    ] as const) {
      const [line] = capture(format, terminal);
      expect(JSON.parse(line ?? '')).toMatchObject({
        level: 'info',
        msg: 'pull finished with [redacted]',
        apiKey: '[redacted]',
      });
    }
  });

  it('prints for a person when asked to, terminal or not', () => {
    expect(capture('pretty', false).join('')).toMatch(/INFO.*pull finished/);
  });
});
