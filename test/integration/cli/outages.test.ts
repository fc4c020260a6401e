import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { SimControl, startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { cliFolder, everyResource, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';
import {
  eventually,
  killIfRunning,
  startDaemonProcess,
  withinBound,
  type DaemonProcess,
  type LogLine,
} from '../../support/cli/daemonProcess.js';
import { STATE_RELOG_MS } from '../../../src/log/index.js';
import { BREAKER_PAUSE_MS } from '../../../src/platform/breaker.js';
import { OffsetClock, systemClock } from '../../../src/shared/clock.js';
import { webhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';

const TOKEN = 'outage-token-5d1e2a97';
/** Every second: a run that takes longer meets its next tick still going. */
const EVERY_SECOND = '* * * * * *';
const RESOURCES = Object.keys(everyResource(() => true));
/** The longest back-off of a job: once the daemon's clock moved this far, every job is due. */
const RETRY_MAX_DELAY_MS = 20_000;
/** Real time the outage lasts once its alert fired: several ticks of every schedule. */
const OUTAGE_TICKS_MS = 3_000;

let closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

/** How the platform goes away and comes back. */
interface Outage {
  /** The one warn line that says it started, and the info line that says it ended. */
  lines: { down: RegExp; back: RegExp };
  begin(sim: RunningSimulator): Promise<void>;
  /** Answers the simulator to go on with; `restart` starts one where the first listened. */
  end(sim: RunningSimulator, restart: () => Promise<RunningSimulator>): Promise<RunningSimulator>;
  /** The daemon's clock moves this far after the end: a `Retry-After` the platform asked for. */
  waitAfterMs?: number;
  /**
   * Whether a failing list's run surely outlasts its next tick: only when each attempt waits
   * out platform.timeoutMs. A refused or reset attempt fails at once, and the breaker it opens
   * fails the next runs at once too, so whether their ticks meet depends on the machine's speed.
   */
  slow?: true;
  /** Real time the requests sent before the end need to fail (time-outs), before clocks move. */
  tailMs?: number;
  /** Checks what the daemon does while it lasts (`elapse` moves both clocks). */
  during?: (
    sim: RunningSimulator,
    elapse: (ms: number) => Promise<void>,
    daemon: DaemonProcess,
  ) => Promise<void>;
}

const control = (sim: RunningSimulator) => new SimControl(sim.url, sim.controlToken);

/** A fault on every request of the platform API, cleared at the end: requests fail as `kind`. */
function fault(
  kind: string,
  spec: Parameters<SimControl['setFault']>[0],
  waitAfterMs?: number,
): Outage {
  return {
    lines: {
      down: new RegExp(`^platform requests fail \\(${kind}\\): `),
      back: new RegExp(`^platform requests go through again \\(failing with ${kind} since `),
    },
    begin: async (sim) => void (await control(sim).setFault(spec)),
    end: async (sim) => {
      await control(sim).clearFaults();
      return sim;
    },
    ...(waitAfterMs === undefined ? {} : { waitAfterMs }),
  };
}

const OUTAGES: Record<string, Outage> = {
  'connection refused': {
    lines: {
      down: /^the platform cannot be reached \(since /,
      back: /^the platform can be reached again \(unreachable since /,
    },
    begin: (sim) => sim.close(),
    end: (_sim, restart) => restart(),
  },
  'HTTP 500 to everything': {
    ...fault('HTTP 500', { errorStatus: 500 }),
    // A quarter of an hour on: while it lasts, one summary.
    during: async (_sim, elapse, daemon) => {
      await elapse(STATE_RELOG_MS);
      await eventually('the summary', () =>
        daemon
          .lines()
          .find((line) => /^still: platform requests fail \(HTTP 500\)/.test(String(line.msg))),
      );
    },
  },
  'HTTP 503 with Retry-After: 120': {
    ...fault('HTTP 503', { errorStatus: 503, retryAfter: '120' }, 121_000),
    // A minute on, longer than the breakers' own pause: the platform asked for two.
    during: async (sim, elapse) => {
      await control(sim).clearRequests();
      await elapse(60_000);
      // Real time, for the ticks that would send again: nothing does.
      await sleep(2_000);
      expect(await control(sim).requests()).toEqual([]);
    },
  },
  'time-outs (no answer within platform.timeoutMs)': {
    ...fault('time-out', { latencyMs: 2_500 }),
    slow: true,
    tailMs: 3_000,
  },
  'connections reset': fault('reset', { reset: true }),
};

interface OutageRun {
  /** The log lines from the outage's start to the daemon's stop. */
  during: LogLine[];
  alerts: Record<string, unknown>[];
  /** `/metrics` at the outage's end. */
  metrics: string;
}

/** The daemon at 1 s schedules with alerts to a webhook, through one outage of the platform. */
async function throughOutage(outage: Outage): Promise<OutageRun> {
  const hook: WebhookReceiver = await webhookReceiver();
  closing.push(() => hook.server.close());
  const startAt = (port: number) =>
    startSimulator({
      variant: 'B',
      keys: SIM_KEYS,
      // The platform's clock and the daemon's run together: moved together below.
      clock,
      port,
      host: '127.0.0.1',
    });
  const clock = new OffsetClock(systemClock);
  let sim = await startAt(0);
  closing.push(() => sim.close());
  const restart = () => startAt(Number(new URL(sim.url).port));
  const f: CliFolder = cliFolder(sim.url, {
    platform: {
      baseUrl: sim.url,
      apiKey: SIM_KEYS[0]?.key,
      variant: 'B',
      timeoutMs: 1_000,
      // With time-outs, a failing list's run waits out two of them: past its next tick.
      readRetry: { attempts: 2, baseDelayMs: 400, maxDelayMs: 800 },
    },
    retry: { maxAttempts: 12, baseDelayMs: 1_000, maxDelayMs: RETRY_MAX_DELAY_MS },
    sync: { jitterSeconds: 0, resources: everyResource(() => ({ schedule: EVERY_SECOND })) },
    http: { enabled: true, port: 0, token: TOKEN, readyCheckSeconds: 1 },
    alerts: { webhook: { url: hook.url }, checkSeconds: 1 },
  });
  closing.push(() => f.cleanup());
  const daemon = startDaemonProcess(f.configPath, f.folder, { clock: true });
  closing.push(() => killIfRunning(daemon));
  const started = await daemon.waitForLog('homecare-sync started');
  const url = String(started['url']);
  const ready = async () => (await fetch(`${url}/readyz`)).status === 200;
  const pulled = async () => {
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const last = 'homecare_sync_last_successful_pull_timestamp_seconds{resource=';
    return RESOURCES.every((resource) => metrics.includes(`${last}"${resource}"}`));
  };
  await eventually('every resource pulled once', pulled);
  await eventually('the daemon ready', ready);
  const before = daemon.lines().length;

  await outage.begin(sim);
  const alerted = (state: string) => () =>
    hook.bodies.some((body) => body['alert'] === 'platformUnreachable' && body['state'] === state);
  await eventually('the outage alert', alerted('firing'));
  const said = (pattern: RegExp) => () =>
    daemon.lines().some((line) => pattern.test(String(line.msg)));
  // Its reads retried for a while first: a short outage passes unseen.
  await eventually('the line that says it started', said(outage.lines.down));
  // Real time, for the schedules' ticks to meet their runs still going: no clock stands in.
  await sleep(OUTAGE_TICKS_MS);
  const elapse = async (ms: number) => {
    clock.move(ms);
    await daemon.advanceClock(ms);
  };
  await outage.during?.(sim, elapse, daemon);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  sim = await outage.end(sim, restart);
  // Real time: requests under way wait out platform.timeoutMs on undici's timers.
  if (outage.tailMs !== undefined) await sleep(outage.tailMs);
  // The breakers' pause, the jobs' back-off and the platform's Retry-After pass on both
  // clocks, not in real time.
  await elapse(BREAKER_PAUSE_MS + RETRY_MAX_DELAY_MS + (outage.waitAfterMs ?? 0));
  await eventually('the recovery alert', alerted('resolved'));
  await eventually('the line that says it ended', said(outage.lines.back));
  await eventually('the daemon ready again', ready);
  daemon.signal('SIGTERM');
  expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);

  return { during: daemon.lines().slice(before), alerts: hook.bodies, metrics };
}

describe('an outage of the platform at 1 s schedules is one state (design.md, Wave 4)', () => {
  it.each(Object.keys(OUTAGES))(
    '%s: one warn line when it starts, one info line when it ends, at most three warn lines, none from node-cron, one alert and one resolved',
    async (kind) => {
      const outage = OUTAGES[kind] as Outage;
      const run = await throughOutage(outage);
      // The summaries a long outage says every 15 minutes are its one state too.
      const loud = run.during.filter(
        (line) =>
          (line.level === 'warn' || line.level === 'error') &&
          !String(line.msg).startsWith('still: '),
      );
      expect(loud.length, loud.map((line) => line.msg).join('\n')).toBeLessThanOrEqual(3);
      expect(run.during.filter((line) => line['source'] === 'node-cron')).toEqual([]);
      expect(run.alerts.map((body) => [body['alert'], body['state']])).toEqual([
        ['platformUnreachable', 'firing'],
        ['platformUnreachable', 'resolved'],
      ]);
      expect(run.alerts[1]?.['summary']).toMatch(/^the platform is reachable again/);
      const { down, back } = outage.lines;
      const lines = (pattern: RegExp) =>
        run.during.filter((line) => pattern.test(String(line.msg))).map((line) => line.level);
      expect(lines(down)).toEqual(['warn']);
      expect(lines(back)).toEqual(['info']);
      if (!outage.slow) return;
      // Each list's first failing run waits out two time-outs of a second: its ticks were skipped.
      const skipped =
        /^homecare_sync_schedule_ticks_skipped_total\{[^}]*reason="overlap"[^}]*\} ([0-9]+)/gm;
      const counts = [...run.metrics.matchAll(skipped)].map((match) => Number(match[1]));
      expect(counts.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);
    },
    60_000,
  );
});
