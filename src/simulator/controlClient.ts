import type { Fault, FaultSpec } from './faults.js';
import type { RequestLogEntry } from './requestLog.js';

/**
 * A client of the simulator's control API (/__sim), for tests, soaks and anyone scripting the
 * simulator: records as a platform user makes them, faults, the request log, the clock.
 */
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
