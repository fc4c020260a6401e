import { afterAll, beforeAll, expect } from 'vitest';
import {
  SimControl,
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../src/simulator/index.js';
import { eventually } from './eventually.js';
import { FakeClock } from './fakeClock.js';

export { SimControl };

export interface TestSimulator extends RunningSimulator {
  control: SimControl;
  /**
   * The fake clock the simulator runs on: the answers its faults hold (a latency, a slow body)
   * come once the test moves it that far. Fails when the test gave the simulator another clock.
   */
  fakeClock(): FakeClock;
}

/** Starts a simulator on a free loopback port; variant B and a fake clock unless told. */
export async function startTestSimulator(
  options: Partial<SimulatorOptions> = {},
): Promise<TestSimulator> {
  const clock = options.clock ?? new FakeClock('2026-03-01T08:00:00.000Z');
  const simulator = await startSimulator({
    variant: 'B',
    ...options,
    clock,
    port: 0,
    host: '127.0.0.1',
  });
  return {
    ...simulator,
    control: new SimControl(simulator.url, simulator.controlToken),
    fakeClock() {
      if (clock instanceof FakeClock) return clock;
      throw new Error('this simulator runs on a clock of its own, not a fake one');
    },
  };
}

/**
 * What `send` resolves with, once the simulator held its answer for `ms` of its fake clock (a
 * latency fault): the answer still waits 1 ms before that, and comes when the time is up.
 */
export async function heldAnswer<T>(
  sim: TestSimulator,
  ms: number,
  send: () => Promise<T>,
): Promise<T> {
  const clock = sim.fakeClock();
  const held = clock.sleeping();
  const answer = send();
  await eventually('the simulator to hold the answer', () => clock.sleeping() > held);
  clock.advance(ms - 1);
  expect(clock.sleeping(), 'the answer held until its latency is up').toBe(held + 1);
  clock.advance(1);
  return answer;
}

/**
 * Settles as `work` does, moving the simulator's fake clock on by `stepMs` whenever it holds an
 * answer (a latency, a slow body's next piece) meanwhile; says how many steps that took.
 */
export async function answeringUntil<T>(
  sim: TestSimulator,
  stepMs: number,
  work: Promise<T>,
): Promise<{ value: T; steps: number }> {
  const clock = sim.fakeClock();
  let settled = false;
  const done = work.finally(() => (settled = true));
  let steps = 0;
  for (;;) {
    await eventually('an answer held, or the work done', () => settled || clock.sleeping() > 0);
    if (settled) return { value: await done, steps };
    steps += 1;
    clock.advance(stepMs);
  }
}

/** One simulator for the tests of a file: started before them, closed after. */
export function useSimulator(options: Partial<SimulatorOptions> = {}): () => TestSimulator {
  let simulator: TestSimulator | undefined;
  beforeAll(async () => {
    simulator = await startTestSimulator(options);
  });
  afterAll(async () => {
    await simulator?.close();
  });
  return () => {
    if (!simulator) throw new Error('the simulator is not started: call inside a test');
    return simulator;
  };
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown;
}

/** One API request with a key (default demo-key) and an optional JSON body. */
export async function api(
  simulator: { url: string },
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown } = {},
): Promise<ApiAnswer> {
  const key = options.key === undefined ? 'demo-key' : options.key;
  const headers: Record<string, string> = {};
  if (key !== null) headers['service-api-key'] = key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${simulator.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A single order of the simulator's as the platform lists it. */
export type ListedOrder = Record<string, unknown> & { _id: string };

/**
 * The first created single order the platform lists (asked with another client's key, so that
 * the daemon's own view of the list is not touched); the seed always has one.
 */
export async function firstCreatedOrder(simulator: { url: string }): Promise<ListedOrder> {
  const listed = await api(
    simulator,
    'GET',
    '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
    { key: 'demo-key-2' },
  );
  const order = (listed.json as ListedOrder[])[0];
  if (order === undefined) throw new Error('the seed has no created singleOrder');
  return order;
}
