import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getCheckpoint, getMirror, listQuarantine, type Store } from '../../../src/store/index.js';
import type { PullBoundSettings } from '../../../src/pull/pullBounds.js';
import type { PullSummary } from '../../../src/pull/puller.js';
import { API_KEY, cliFolder, SIM_KEYS } from '../../support/cli/cliFolder.js';
import { startPullRig, type PullRig } from '../../support/daemon.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

/** The pull side of a daemon against the simulator in variant B, with the given bounds. */
const boundedRig = (url: string, bounds: PullBoundSettings) =>
  startPullRig(url, 'B', { apiKey: API_KEY, attempts: 2, bounds });

const named = (summaries: PullSummary[], resource: string) =>
  summaries.filter((s) => s.resource === resource);

const watermarks = (store: Store, summaries: PullSummary[]) =>
  summaries.map((s) => getCheckpoint(store, s.resource, s.filter)?.watermark);

let sim: TestSimulator;
let rig: PullRig | undefined;

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 7 });
});
afterEach(async () => {
  await sim.control.clearFaults();
  await rig?.close();
  rig = undefined;
});
afterAll(async () => {
  await sim.close();
});

describe('a list without end', () => {
  it('stops at its records bound: only that resource fails, its checkpoint stays, the others are pulled', async () => {
    rig = boundedRig(sim.url, { resources: { article: { maxRecords: 2_000 } } });
    const first = await rig.runner.runAll();
    expect(first.every((s) => s.ok)).toBe(true);
    const articlesBefore = watermarks(rig.store, named(first, 'article'));

    rig.clock.advance(10 * 60_000);
    await sim.control.setFault({ path: '/article', endless: true });
    const second = await rig.runner.runAll();

    // The fault repeats what a list holds: a list with nothing in it (archived) stays empty.
    const articles = named(second, 'article').filter((s) => s.fetched > 0);
    expect(articles.length).toBeGreaterThan(0);
    for (const pull of articles) {
      expect(pull.ok).toBe(false);
      expect(pull.error).toContain('GET /article (article)');
      expect(pull.error).toContain('sync.resources.article.maxRecords = 2000');
      expect(pull.error).toContain('set sync.resources.article.maxRecords: 8000');
      expect(pull.fetched).toBe(2_000);
    }
    const before = new Map(named(first, 'article').map((s, n) => [s.filter, articlesBefore[n]]));
    expect(watermarks(rig.store, articles)).toEqual(articles.map((s) => before.get(s.filter)));
    const others = second.filter((s) => s.resource !== 'article');
    expect(others.length).toBeGreaterThan(5);
    expect(others.every((s) => s.ok)).toBe(true);
    for (const pull of others) {
      expect(getCheckpoint(rig.store, pull.resource, pull.filter)?.watermark).toBe(pull.watermark);
    }
  });

  it('stops at its bytes bound, naming sync.maxListBytes', async () => {
    rig = boundedRig(sim.url, { maxListBytes: 1_000_000 });
    await sim.control.setFault({ path: '/doctor', endless: true, padBytes: 10_000 });
    const [doctors] = (await rig.runner.runResource('doctor')) ?? [];
    expect(doctors?.ok).toBe(false);
    expect(doctors?.error).toContain('sync.maxListBytes = 1000000');
    expect(doctors?.fetched).toBeLessThan(100);
    expect(getCheckpoint(rig.store, 'doctor', '')?.watermark).toBeUndefined();
  });

  it('stops at its time bound when it trickles, naming sync.maxListSeconds', async () => {
    rig = boundedRig(sim.url, { maxListSeconds: 1 });
    await sim.control.setFault({ path: '/doctor', slowBodyMs: 20_000 });
    const started = Date.now();
    const [doctors] = (await rig.runner.runResource('doctor')) ?? [];
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(doctors?.ok).toBe(false);
    expect(doctors?.error).toContain('longer than 1 seconds');
    expect(doctors?.error).toContain('sync.maxListSeconds = 1');
  });

  it('lets sync --once end, exit 1, with the bound named and the other resources pulled', async () => {
    const folder = cliFolder(sim.url, {
      sync: { resources: { article: { maxRecords: 2_000 } } },
    });
    try {
      await sim.control.setFault({ path: '/article', endless: true });
      const result = await folder.cli('sync', '--once');
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('sync.resources.article.maxRecords = 2000');
      expect(result.stdout).toMatch(/"resource":"doctor"[^\n]*"fetched":[1-9]/);
    } finally {
      folder.cleanup();
    }
  }, 90_000);
});

/** A value nested `levels` deep in arrays. */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let n = 0; n < levels; n++) value = [value];
  return value;
}

describe('records no store can keep', () => {
  it('quarantines one nested deeper than SQLite keeps and one over the record bound, by _id; the list goes on', async () => {
    rig = boundedRig(sim.url, { maxRecordBytes: 100_000 });
    const deep = await sim.control.createRecord('doctor', {
      lastName: 'Deep',
      notes: nested(1_100),
    });
    const large = await sim.control.createRecord('doctor', {
      lastName: 'Large',
      notes: 'x'.repeat(150_000),
    });
    const fine = await sim.control.createRecord('doctor', { lastName: 'Fine' });
    const [doctors] = (await rig.runner.runResource('doctor')) ?? [];
    expect(doctors, JSON.stringify(doctors?.error)).toMatchObject({ ok: true, quarantined: 2 });
    expect(getMirror(rig.store, 'doctor', String(fine['_id']))).toBeDefined();
    expect(getMirror(rig.store, 'doctor', String(deep['_id']))).toBeUndefined();
    expect(getMirror(rig.store, 'doctor', String(large['_id']))).toBeUndefined();
    const entries = listQuarantine(rig.store, { resource: 'doctor' });
    const byId = new Map(entries.map((entry) => [entry.recordId, entry]));
    expect(byId.get(String(deep['_id']))?.reason).toContain('nests 1101 levels deep');
    expect(byId.get(String(large['_id']))?.reason).toContain('more than sync.maxRecordBytes');
    // The record over the bound was never held, so it is not kept either.
    expect(byId.get(String(large['_id']))?.json.length).toBeLessThan(1_000);
    expect(getCheckpoint(rig.store, 'doctor', '')?.watermark).toBeDefined();
  });
});
