import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCheckpoint } from '../../../src/store/index.js';
import type { PullSummary } from '../../../src/pull/puller.js';
import { startPullRig, type PullRig } from '../../support/daemon.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

/** Short, so a hanging list costs the test about a second per try. */
const TIMEOUT_MS = 500;
/** The pull rig's read retry: every try counted, the first one included. */
const ATTEMPTS = 3;
/** The list that hangs: early in the pass, with four status filters, so others follow it. */
const HANGING = 'singleOrder';

const startRig = (url: string): PullRig => startPullRig(url, 'B', { timeoutMs: TIMEOUT_MS });

const codeOf = (summary: PullSummary): unknown => (summary.cause as { code?: unknown }).code;

let sim: TestSimulator | undefined;
let rig: PullRig | undefined;
afterEach(async () => {
  await rig?.close();
  await sim?.close();
  rig = undefined;
  sim = undefined;
});

describe('one list that hangs does not hold the others', () => {
  beforeEach(async () => {
    sim = await startTestSimulator({ seed: 3 });
    rig = startRig(sim.url);
  });

  /** The pass, split into the hanging resource's pulls and everyone else's. */
  async function passWithHangingList(): Promise<{ hung: PullSummary[]; others: PullSummary[] }> {
    const all = await (rig as PullRig).runner.runAll();
    return {
      hung: all.filter((s) => s.resource === HANGING),
      others: all.filter((s) => s.resource !== HANGING),
    };
  }

  /** Every other resource was pulled in the same pass and its checkpoint moved. */
  function expectOthersPulled(others: PullSummary[]): void {
    expect(others.length).toBeGreaterThan(20);
    expect(
      others.filter((s) => !s.ok),
      'no other pull fails',
    ).toEqual([]);
    for (const summary of others.filter((s) => s.watermark !== undefined)) {
      const checkpoint = getCheckpoint((rig as PullRig).store, summary.resource, summary.filter);
      expect(checkpoint?.watermark, `${summary.resource}:${summary.filter}`).toBe(
        summary.watermark,
      );
    }
    expect(
      getCheckpoint((rig as PullRig).store, 'directOrder', 'created')?.watermark,
    ).toBeDefined();
  }

  /** The first filter spent its tries on a time-out; the rest of the resource failed at once. */
  function expectResourceFailed(hung: PullSummary[], timeout: string): void {
    const [first, ...rest] = hung;
    expect(first?.ok).toBe(false);
    expect(first?.error).toContain(`GET /singleOrder (${HANGING})`);
    expect(first?.error).toContain(timeout);
    expect(first?.error).toContain('platform.timeoutMs');
    expect(rest.length).toBe(3);
    for (const summary of rest) {
      expect(codeOf(summary)).toBe('RESOURCE_FAILING');
      expect(summary.error).toContain(`not sent: the ${HANGING} list failed a moment ago`);
    }
    for (const summary of hung) {
      expect(
        getCheckpoint((rig as PullRig).store, HANGING, summary.filter)?.watermark,
      ).toBeUndefined();
    }
  }

  it('headers that never come: a time-out naming the resource, the others pulled', async () => {
    await sim?.control.setFault({ path: `/${HANGING}`, latencyMs: 10 * TIMEOUT_MS });
    const { hung, others } = await passWithHangingList();
    expectResourceFailed(hung, 'UND_ERR_HEADERS_TIMEOUT');
    expectOthersPulled(others);
    const sent = (await sim?.control.requests())?.filter((r) => r.path === `/${HANGING}`);
    expect(sent).toHaveLength(ATTEMPTS);
  });

  it('a body that starts and then stalls is cut by the same time-out', async () => {
    // Ten pieces with a pause of four time-outs between them: the headers and the first piece
    // come at once, then nothing.
    await sim?.control.setFault({ path: `/${HANGING}`, slowBodyMs: 40 * TIMEOUT_MS });
    const { hung, others } = await passWithHangingList();
    expectResourceFailed(hung, 'UND_ERR_BODY_TIMEOUT');
    expectOthersPulled(others);
  });

  it('a 503 on every list fails each resource on its own, never the whole platform', async () => {
    await sim?.control.setFault({ path: '/', errorStatus: 503 });
    const all = await (rig as PullRig).runner.runAll();
    expect(all.length).toBeGreaterThan(20);
    expect(all.every((s) => !s.ok)).toBe(true);
    expect(all.map(codeOf)).not.toContain('PLATFORM_UNREACHABLE');
    const firstOfEach = all.filter((s, i) => all[i - 1]?.resource !== s.resource);
    expect(firstOfEach.map(codeOf).every((code) => code === 'HTTP_503')).toBe(true);
    expect(all.filter((s) => codeOf(s) === 'RESOURCE_FAILING')).toHaveLength(
      all.length - firstOfEach.length,
    );
  });
});

describe('a platform that refuses every connection', () => {
  it('opens the platform-wide breaker once: one outage, not one per resource', async () => {
    sim = await startTestSimulator({ seed: 3 });
    const url = sim.url;
    await sim.close();
    sim = undefined;
    rig = startRig(url);
    const [first, ...rest] = await rig.runner.runAll();
    expect(first && codeOf(first)).toBe('UNREACHABLE');
    expect(first?.error).toContain('ECONNREFUSED');
    expect(rest.length).toBeGreaterThan(20);
    // Not sent: only the first list spent its retries, every other one failed at once.
    expect(rest.map(codeOf).every((code) => code === 'PLATFORM_UNREACHABLE')).toBe(true);
  });
});
