import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFor, RESOURCE_NAMES } from '../../../src/contract/index.js';
import { pullTargets } from '../../../src/pull/targets.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';

interface Checkpoint {
  resource: string;
  filter: string;
  watermark?: string | null;
}

let sim: TestSimulator;
let f: CliFolder;
let delivered: string[] = [];

const checkpoints = async (): Promise<Checkpoint[]> => {
  const result = await f.cli('checkpoint', 'list', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Checkpoint[];
};
const others = <T extends Checkpoint>(list: T[]) =>
  list.filter((c) => c.resource !== 'singleOrder');
const singleOrders = <T extends Checkpoint>(list: T[]) =>
  list.filter((c) => c.resource === 'singleOrder');

/** The fetched and repeated counts of the last singleOrder pulls, from `status --json`. */
async function lastSingleOrderRuns(): Promise<{ fetched: number; repeats: number }> {
  const result = await f.cli('status', '--json');
  const status = JSON.parse(result.stdout) as {
    checkpoints: (Checkpoint & { lastRun?: { fetched: number; repeats: number } })[];
  };
  return singleOrders(status.checkpoints).reduce(
    (sum, c) => ({
      fetched: sum.fetched + (c.lastRun?.fetched ?? 0),
      repeats: sum.repeats + (c.lastRun?.repeats ?? 0),
    }),
    { fetched: 0, repeats: 0 },
  );
}

/**
 * Two passes first: the acknowledgements of the first change the orders' status, and the
 * platform lists an order again after its status changed (no loop suppression for orders), so
 * the second pass hands that new version over. After that, nothing on the platform changes.
 */
beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 7 });
  f = cliFolder(sim.url);
  for (let pass = 0; pass < 2; pass += 1) {
    const result = await f.cli('sync', '--once');
    if (result.code !== 0) throw new Error(`sync --once failed:\n${result.stderr}`);
  }
  delivered = f.outboxFiles();
}, 60_000);
afterAll(async () => {
  await sim.close();
  f.cleanup();
});

describe('checkpoint list and reset', () => {
  it('list prints one line per resource and filter with its watermark', async () => {
    const result = await f.cli('checkpoint', 'list');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const listed = await checkpoints();
    expect(lines).toHaveLength(listed.length);
    expect(lines).toContainEqual(
      expect.stringMatching(/^singleOrder\s+created\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^patient\s+-\s+\d{4}-\d\d-\d\dT/));
  });

  it('reset --to moves every singleOrder filter there and leaves the others; the next sync repeats nothing', async () => {
    const before = await checkpoints();
    const reset = await f.cli('checkpoint', 'reset', 'singleOrder', '--to', '2026-01-01T00:00:00Z');
    expect(reset.code).toBe(0);
    const count = singleOrders(before).length;
    expect(reset.stdout).toBe(
      `singleOrder: ${count} checkpoint(s) now start at 2026-01-01T00:00:00Z\n`,
    );
    const after = await checkpoints();
    expect(singleOrders(after).map((c) => c.watermark)).toEqual(
      Array.from({ length: count }, () => '2026-01-01T00:00:00.000Z'),
    );
    expect(others(after)).toEqual(others(before));

    const sync = await f.cli('sync', '--once');
    expect(sync.code).toBe(0);
    expect(sync.stderr).toMatch(/; 0 handed to the ERP /);
    const runs = await lastSingleOrderRuns();
    expect(runs.repeats).toBeGreaterThan(0);
    expect(f.outboxFiles()).toEqual(delivered);
  });

  it('reset of a resource the variant has no list of exits 2 and changes nothing', async () => {
    const listed = new Set(pullTargets(contractFor('B')).map((target) => target.resource));
    const absent = RESOURCE_NAMES.find((name) => !listed.has(name));
    if (absent === undefined) throw new Error('variant B lists every resource');
    const before = await checkpoints();
    const reset = await f.cli('checkpoint', 'reset', absent);
    expect(reset.code).toBe(2);
    expect(reset.stdout).toBe('');
    expect(reset.stderr).toBe(`${absent} has no checkpoint: variant B has no list of it\n`);
    expect(await checkpoints()).toEqual(before);
  });

  it('reset without --to starts from the beginning; the next sync fetches all again and repeats nothing', async () => {
    const reset = await f.cli('checkpoint', 'reset', 'singleOrder');
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(
      /^singleOrder: \d+ checkpoint\(s\) now start from the beginning\n$/,
    );
    const after = await checkpoints();
    for (const c of singleOrders(after)) expect(c.watermark ?? null).toBeNull();
    const text = await f.cli('checkpoint', 'list');
    expect(text.stdout).toMatch(/^singleOrder\s+created\s+\(from the beginning\)$/m);

    const sync = await f.cli('sync', '--once');
    expect(sync.code).toBe(0);
    const runs = await lastSingleOrderRuns();
    const singleOrderIds = new Set(
      delivered.filter((name) => name.startsWith('singleOrder/')).map((name) => name.split('_')[0]),
    );
    expect(runs.fetched).toBeGreaterThanOrEqual(singleOrderIds.size);
    expect(runs.repeats).toBe(runs.fetched);
    expect(f.outboxFiles()).toEqual(delivered);
    for (const c of singleOrders(await checkpoints())) expect(c.watermark).toMatch(/^2026-/);
  });
});
