import { describe, expect, it } from 'vitest';
import { runChecks, type CheckDefinition, type RunnerDeps } from '../../../src/check/runner.js';
import { exitCodeOf, fail, pass, skip, warn, type Outcome } from '../../../src/check/verdict.js';
import { TickingClock } from '../../support/fakeClock.js';

type Ctx = { calls: string[] };

const done = (outcome: Outcome) => Promise.resolve(outcome);

/** A time limit that runs out at once for the checks named, and never for the others. */
function limits(runOut: readonly string[] = []): RunnerDeps & { started: string[] } {
  const started: string[] = [];
  return {
    clock: new TickingClock('2026-03-01T08:00:00.000Z', 5),
    limitMs: 4000,
    started,
    sleep: (_ms, signal, id) => {
      started.push(id);
      if (runOut.includes(id)) return Promise.resolve();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve()));
    },
  };
}

const check = (
  id: string,
  run: CheckDefinition<Ctx>['run'],
  needs?: string[],
): CheckDefinition<Ctx> => ({ id, run, ...(needs ? { needs } : {}) });

describe('running the checks', () => {
  it('gives each its verdict, with its time, in order', async () => {
    const ctx: Ctx = { calls: [] };
    const verdicts = await runChecks(
      [check('a', () => done(pass('fine'))), check('b', () => done(warn('odd', 'look at it')))],
      ctx,
      limits(),
    );
    expect(verdicts).toEqual([
      { id: 'a', status: 'pass', ms: 5, message: 'fine', hint: null },
      { id: 'b', status: 'warn', ms: 5, message: 'odd', hint: 'look at it' },
    ]);
  });

  it('cuts a check at its time limit: fail, naming the limit, and the next one still runs', async () => {
    const deps = limits(['slow']);
    const verdicts = await runChecks(
      [check('slow', () => new Promise(() => undefined)), check('next', () => done(pass('ok')))],
      { calls: [] },
      deps,
    );
    expect(verdicts[0]).toMatchObject({
      id: 'slow',
      status: 'fail',
      message: 'did not finish within 4 s',
    });
    expect(verdicts[0]?.hint).toContain('--timeout');
    expect(verdicts[1]).toMatchObject({ id: 'next', status: 'pass' });
  });

  it('hands the check a signal that aborts when its time is up', async () => {
    let aborted = false;
    await runChecks(
      [
        check(
          'slow',
          (_ctx, signal) =>
            new Promise(() => signal.addEventListener('abort', () => (aborted = true))),
        ),
      ],
      { calls: [] },
      limits(['slow']),
    );
    expect(aborted).toBe(true);
  });

  it('skips a check whose prerequisite failed, naming it; what needs a skipped one names the same cause', async () => {
    const ctx: Ctx = { calls: [] };
    const verdicts = await runChecks(
      [
        check('dns', () => done(fail('no such host', 'check baseUrl'))),
        check('tcp', () => done(pass('never')), ['dns']),
        check('key', () => done(pass('never')), ['tcp']),
        check('disk', () => done(pass('room'))),
      ],
      ctx,
      limits(),
    );
    expect(verdicts.map((v) => [v.id, v.status, v.message])).toEqual([
      ['dns', 'fail', 'no such host'],
      ['tcp', 'skip', 'not tried: dns failed'],
      ['key', 'skip', 'not tried: dns failed'],
      ['disk', 'pass', 'room'],
    ]);
  });

  it('a check not applicable (skip) blocks nothing', async () => {
    const verdicts = await runChecks(
      [
        check('tls', () => done(skip('http: no TLS'))),
        check('key', () => done(pass('ok')), ['tls']),
      ],
      { calls: [] },
      limits(),
    );
    expect(verdicts[1]).toMatchObject({ id: 'key', status: 'pass' });
  });

  it('a check that throws fails with what it threw', async () => {
    const verdicts = await runChecks(
      [check('x', () => Promise.reject(new Error('boom')))],
      { calls: [] },
      limits(),
    );
    expect(verdicts[0]).toMatchObject({ status: 'fail', message: 'boom' });
  });
});

describe('the exit code', () => {
  const v = (status: 'pass' | 'warn' | 'fail' | 'skip') => ({
    id: status,
    status,
    ms: 1,
    message: '',
    hint: null,
  });
  it('is 0 when nothing fails, 1 on a failure, 2 on a warning with --strict', () => {
    expect(exitCodeOf([v('pass'), v('skip'), v('warn')], false)).toBe(0);
    expect(exitCodeOf([v('pass'), v('warn')], true)).toBe(2);
    expect(exitCodeOf([v('warn'), v('fail')], true)).toBe(1);
    expect(exitCodeOf([v('fail')], false)).toBe(1);
    expect(exitCodeOf([v('pass'), v('skip')], true)).toBe(0);
  });
});
