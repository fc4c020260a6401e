import { afterEach, describe, expect, it } from 'vitest';
import { getCheckpoint, getLedgerEntry, latestRuns } from '../../../src/store/index.js';
import type { PullStore } from '../../../src/pull/puller.js';
import { createdOrdersPull, type PullRig } from '../../support/daemon.js';
import { emptyWal, walCommits } from '../../support/walCommits.js';
import {
  json,
  startScriptedServer,
  text,
  type Handler,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const order = (n: number) => ({
  _id: `o-${n}`,
  timestamp: '2026-03-01T07:00:00.000Z',
  patientId: 'p-1',
  status: 0,
});
const orders = (count: number) => Array.from({ length: count }, (_, n) => order(n + 1));

/**
 * A pull run's `runs` row costs no commit of its own (issue 10): the row is written by the run's
 * first commit and its outcome by its last, which also moves the checkpoint. The daemon pulls
 * every list every few seconds, mostly finding nothing new, and each commit is an fsync.
 */
describe('the bookkeeping of a pull run', () => {
  let server: ScriptedServer | undefined;
  let rig: PullRig | undefined;

  afterEach(async () => {
    await rig?.close();
    await server?.close();
  });

  async function start(handlers: Handler[], wrap = (store: PullStore) => store) {
    server = await startScriptedServer(...handlers);
    const started = createdOrdersPull(server.url, { batchSize: 2, wrap });
    rig = started.rig;
    return started;
  }

  it('commits once for a pull that finds nothing new: row, checkpoint and outcome together', async () => {
    const { rig, pull } = await start([json(200, orders(1))]);
    await pull();
    emptyWal(rig.store);
    rig.clock.advance(5_000);

    const summary = await pull();

    expect(summary).toMatchObject({ ok: true, fetched: 1, fresh: 0, repeats: 1 });
    expect(walCommits(rig.store)).toBe(1);
    const [run] = latestRuns(rig.store);
    expect(run).toMatchObject({
      startedAt: summary.startedAt,
      finishedAt: summary.finishedAt,
      ok: true,
      fetched: 1,
      repeats: 1,
      watermark: summary.watermark,
    });
    expect(getCheckpoint(rig.store, 'singleOrder', 'created')?.watermark).toBe(summary.watermark);
  });

  it('commits once a batch, the last with the outcome, every version under the one run', async () => {
    const { rig, pull } = await start([json(200, orders(5))]);
    emptyWal(rig.store);

    expect(await pull()).toMatchObject({ ok: true, fetched: 5, fresh: 5 });

    expect(walCommits(rig.store)).toBe(3);
    const runs = latestRuns(rig.store);
    expect(runs).toHaveLength(1);
    const runIds = orders(5).map(
      ({ _id, timestamp }) => getLedgerEntry(rig.store, 'singleOrder', _id, timestamp)?.runId,
    );
    expect(new Set(runIds)).toEqual(new Set([runs[0]?.id]));
  });

  it('records a pull that failed before storing anything, with when it started', async () => {
    const { rig, pull } = await start([text(401, 'no')]);

    const summary = await pull();

    expect(summary.ok).toBe(false);
    expect(latestRuns(rig.store)).toEqual([
      expect.objectContaining({ startedAt: summary.startedAt, ok: false, error: summary.error }),
    ]);
    expect(getCheckpoint(rig.store, 'singleOrder', 'created')).toMatchObject({
      watermark: undefined,
      lastRunOk: false,
    });
  });

  const refusingEnd = (store: PullStore): PullStore => ({
    ...store,
    commitBatch: (run, records, bad, end) =>
      store.commitBatch(
        run,
        records,
        bad,
        end && {
          ...end,
          outcome: () => {
            throw new Error('disk gone at the end');
          },
        },
      ),
  });

  it('records a failed end in a row of its own when the commit that would have held it undid', async () => {
    const { rig, pull } = await start([json(200, orders(1))], refusingEnd);

    const summary = await pull();

    expect(summary).toMatchObject({ ok: false, error: 'disk gone at the end', fresh: 0 });
    expect(latestRuns(rig.store)).toEqual([expect.objectContaining({ ok: false, fetched: 1 })]);
    expect(getLedgerEntry(rig.store, 'singleOrder', 'o-1', order(1).timestamp)).toBeUndefined();
    expect(getCheckpoint(rig.store, 'singleOrder', 'created')?.watermark).toBeUndefined();
  });

  it('records the failure on the row its committed batches name', async () => {
    const { rig, pull } = await start([json(200, orders(3))], refusingEnd);

    expect(await pull()).toMatchObject({ ok: false, fresh: 2, fetched: 3 });

    const runs = latestRuns(rig.store);
    expect(runs).toEqual([expect.objectContaining({ ok: false, new: 2, fetched: 3 })]);
    const first = getLedgerEntry(rig.store, 'singleOrder', 'o-1', order(1).timestamp);
    expect(first?.runId).toBe(runs[0]?.id);
  });
});
