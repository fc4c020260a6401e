import { afterAll, beforeAll } from 'vitest';
import {
  startSimulator,
  type Fault,
  type FaultSpec,
  type RequestLogEntry,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../src/simulator/index.js';
import { FakeClock } from './fakeClock.js';

/** A tiny client of the simulator's control API (/__sim). */
export class SimControl {
  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}/__sim${path}`, {
      method,
      headers: {
        'sim-control-token': this.token,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  createRecord(
    resource: string,
    record: Record<string, unknown>,
    options: { tenant?: string; by?: string } = {},
  ): Promise<Record<string, unknown>> {
    return this.call('POST', `/records/${resource}`, { ...options, record });
  }

  patchRecord(
    resource: string,
    id: string,
    changes: Record<string, unknown>,
    options: { tenant?: string; by?: string } = {},
  ): Promise<Record<string, unknown>> {
    return this.call('PATCH', `/records/${resource}/${encodeURIComponent(id)}`, {
      ...options,
      changes,
    });
  }

  getRecord(resource: string, id: string, tenant = 'demo'): Promise<Record<string, unknown>> {
    const path = `/records/${resource}/${encodeURIComponent(id)}?tenant=${tenant}`;
    return this.call('GET', path);
  }

  requests(): Promise<RequestLogEntry[]> {
    return this.call('GET', '/requests');
  }

  clearRequests(): Promise<void> {
    return this.call('DELETE', '/requests');
  }

  setFault(spec: Partial<FaultSpec>): Promise<Fault> {
    return this.call('POST', '/faults', spec);
  }

  clearFaults(): Promise<void> {
    return this.call('DELETE', '/faults');
  }

  moveClock(change: { offsetMs: number } | { set: string }): Promise<{ now: string }> {
    return this.call('POST', '/clock', change);
  }

  reset(): Promise<{ now: string }> {
    return this.call('POST', '/reset');
  }
}

export interface TestSimulator extends RunningSimulator {
  control: SimControl;
}

/** Starts a simulator on a free loopback port; variant B and a fake clock unless told. */
export async function startTestSimulator(
  options: Partial<SimulatorOptions> = {},
): Promise<TestSimulator> {
  const simulator = await startSimulator({
    variant: 'B',
    clock: new FakeClock('2026-03-01T08:00:00.000Z'),
    ...options,
    port: 0,
    host: '127.0.0.1',
  });
  return { ...simulator, control: new SimControl(simulator.url, simulator.controlToken) };
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
