import { describe, expect, it } from 'vitest';
import { Metrics } from '../../../src/http/metrics.js';

describe('metrics', () => {
  it('names every series the docs list, with the counts given to it', async () => {
    const metrics = new Metrics(
      { version: '1.2.3', variant: 'C' },
      { queueByState: () => ({ pending: 1 }), deadLetters: () => 0, undelivered: () => 2 },
    );
    const run = {
      resource: 'singleOrder',
      ok: true,
      mode: 'incremental',
      fresh: 3,
      repeats: 1,
      quarantined: 0,
      startedAt: '2026-03-01T12:00:00.000Z',
      finishedAt: '2026-03-01T12:00:00.400Z',
    };
    metrics.observePull(run, new Date('2026-03-01T12:00:01.000Z'));
    metrics.jobEnded('deliver.singleOrder', 'done');
    metrics.recordsDelivered('singleOrder', 3);
    metrics.acknowledged('singleOrder', 42);
    metrics.inbound({ kind: 'orderStatus', source: 'http', result: 'accepted' });
    const text = await metrics.registry.metrics();
    for (const line of [
      'homecare_sync_build_info{version="1.2.3",variant="C",node="' + process.version + '"} 1',
      'homecare_sync_pull_runs_total{resource="singleOrder",result="ok"} 1',
      'homecare_sync_pulled_records_total{resource="singleOrder",outcome="new"} 3',
      'homecare_sync_pull_duration_seconds_bucket{le="0.5",resource="singleOrder",mode="incremental",result="ok"} 1',
      'homecare_sync_last_successful_pull_timestamp_seconds{resource="singleOrder"} 1772366401',
      'homecare_sync_ack_latency_seconds_bucket{le="60",resource="singleOrder"} 1',
      'homecare_sync_delivered_records_total{resource="singleOrder"} 3',
      'homecare_sync_jobs_total{kind="deliver.singleOrder",outcome="done"} 1',
      'homecare_sync_inbound_messages_total{kind="orderStatus",source="http",result="accepted"} 1',
      'homecare_sync_queue_jobs{state="pending"} 1',
      'homecare_sync_dead_letters 0',
      'homecare_sync_undelivered_records 2',
    ]) {
      expect(text).toContain(line);
    }
  });
});

describe('the last online check as gauges', () => {
  it('one series per check: -1 skip, 0 pass, 1 warn, 2 fail; and when it ran', async () => {
    const checkedAt = '2026-03-01T12:00:00.000Z';
    const kept = [
      { id: 'platform.key', status: 'pass' as const },
      { id: 'platform.clock', status: 'warn' as const },
      { id: 'read.article', status: 'fail' as const },
      { id: 'platform.proxy', status: 'skip' as const },
    ].map((check) => ({ ...check, ms: 3, message: '', hint: null, checkedAt }));
    const metrics = new Metrics(
      { version: '1.2.3', variant: 'B' },
      {
        queueByState: () => ({}),
        deadLetters: () => 0,
        undelivered: () => 0,
        onlineChecks: () => kept,
      },
    );
    const text = await metrics.registry.metrics();
    for (const line of [
      'homecare_sync_check_status{check="platform.key"} 0',
      'homecare_sync_check_status{check="platform.clock"} 1',
      'homecare_sync_check_status{check="read.article"} 2',
      'homecare_sync_check_status{check="platform.proxy"} -1',
      'homecare_sync_check_timestamp_seconds{check="read.article"} 1772366400',
    ]) {
      expect(text).toContain(line);
    }
  });

  it('no series before the first check', async () => {
    const metrics = new Metrics(
      { version: '1.2.3', variant: 'B' },
      {
        queueByState: () => ({}),
        deadLetters: () => 0,
        undelivered: () => 0,
        onlineChecks: () => [],
      },
    );
    const text = await metrics.registry.metrics();
    expect(text).not.toMatch(/homecare_sync_check_status\{/);
    expect(text).not.toMatch(/homecare_sync_check_timestamp_seconds\{/);
  });
});
