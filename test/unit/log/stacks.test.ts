import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';
import { TransientError } from '../../../src/shared/errors.js';

function logged(err: unknown): Record<string, unknown> {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (l: string) => lines.push(l) },
  });
  logger.warn({ err }, 'it failed');
  return (JSON.parse(lines[0] ?? '{}') as { err: Record<string, unknown> }).err;
}

describe('stacks only for bugs', () => {
  it('logs an expected failure, and the network error it carries, without a stack', async () => {
    // Nothing listens on the discard port: a real refused connection.
    const refused: unknown = await request('http://127.0.0.1:9/').catch((error: unknown) => error);
    const err = logged(
      new TransientError('GET /region answered nothing: connection refused', { cause: refused }),
    );
    expect(err.type).toBe('TransientError');
    expect(JSON.stringify(err)).not.toContain('"stack"');
    expect(JSON.stringify(err.cause)).toContain('ECONNREFUSED');
  });

  it('keeps the stack of a bug, also where an expected error carries it as its cause', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(logged(bug).stack).toContain('stacks.test.ts');
    const wrapped = logged(new TransientError('a reference could not be fetched', { cause: bug }));
    expect(wrapped.stack).toBeUndefined();
    expect((wrapped.cause as { stack?: string }).stack).toContain('stacks.test.ts');
  });
});
