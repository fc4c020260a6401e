import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { contractFor } from '../../../src/contract/index.js';
import { countUndelivered } from '../../../src/store/index.js';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import { createPullRunner, type PullRunner } from '../../../src/pull/runner.js';
import { pullTargets } from '../../../src/pull/targets.js';
import { SIM_START, startPullRig, type PullRig } from '../../support/daemon.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

/**
 * Spec document 2: "`GET /patient`: list; query parameters: not shown." (likewise GET /erpOrder,
 * GET /productGroup and the contract lists). The daemon sends `updatedAfter` anyway; a platform
 * that refuses it with 400, 404 or 422 gets the whole list instead.
 */
describe.each([400, 404, 422])(
  'a list whose updatedAfter the platform refuses with %i',
  (refusal) => {
    let sim: TestSimulator;
    let rig: PullRig;
    let runner: PullRunner;
    const lines: Array<{ msg: string; level: number }> = [];

    beforeEach(async () => {
      sim = await startTestSimulator({ variant: 'B', clock: new FakeClock(SIM_START) });
      rig = startPullRig(sim.url, 'B');
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString('utf8')) as { msg: string; level: number });
          done();
        },
      });
      runner = createPullRunner(
        {
          store: sqlitePullStore(rig.store, () => undefined),
          source: rig.client,
          clock: rig.clock,
          settings: { overlapSeconds: 120, createdLookbackDays: 30, batchSize: 500 },
        },
        pullTargets(contractFor('B')),
        pino({ level: 'info' }, sink),
      );
      await sim.control.setFault({
        path: '/patient',
        method: 'GET',
        errorStatus: refusal,
        withQuery: 'updatedAfter',
        errorBody: { error: 'bad_request', message: 'unknown query parameter updatedAfter' },
      });
    });
    afterEach(async () => {
      await rig.close();
      await sim.close();
    });

    it('is pulled whole, said once in the log, and the repeats are dropped', async () => {
      const [first] = (await runner.runResource('patient')) ?? [];
      const all = first?.fetched ?? 0;
      expect(all).toBeGreaterThan(5);
      expect(first).toMatchObject({ ok: true, fresh: all });
      expect(first?.notice).toContain('pulled whole');
      expect(countUndelivered(rig.store)).toBe(all);

      rig.clock.advance(60_000);
      const [second] = (await runner.runResource('patient')) ?? [];
      expect(second).toMatchObject({ ok: true, fetched: all, fresh: 0, repeats: all });
      expect(second?.notice).toBeUndefined();

      const gets = (await sim.control.requests()).filter((r) => r.path === '/patient');
      expect(gets.map((r) => [r.status, 'updatedAfter' in r.query])).toEqual([
        [refusal, true],
        [200, false],
        [200, false],
      ]);
      const notices = lines.filter((l) => l.msg.includes('pulled whole'));
      expect(notices).toHaveLength(1);
      expect(notices[0]?.level).toBe(40);
      expect(notices[0]?.msg).toContain(`(HTTP ${refusal};`);
    });

    it('still fails a list whose updatedAfter the spec names (article), without a fallback', async () => {
      await sim.control.setFault({
        path: '/article',
        method: 'GET',
        errorStatus: refusal,
        withQuery: 'updatedAfter',
      });
      const summaries = (await runner.runResource('article')) ?? [];
      expect(summaries.length).toBeGreaterThan(0);
      expect(summaries.every((s) => !s.ok && s.notice === undefined)).toBe(true);
    });

    it('keeps the meaning of 401 and 403 on a guessed updatedAfter: the pull fails, no fallback', async () => {
      await sim.control.clearFaults();
      for (const status of [401, 403]) {
        await sim.control.setFault({
          path: '/patient',
          method: 'GET',
          errorStatus: status,
          withQuery: 'updatedAfter',
          times: 1,
        });
        const [summary] = (await runner.runResource('patient')) ?? [];
        expect(summary).toMatchObject({ ok: false });
        expect(summary?.notice).toBeUndefined();
      }
    });
  },
);
