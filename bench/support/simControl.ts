/**
 * The simulator's control API (/__sim) as a platform user reaches it, as test/support/simulator.ts
 * SimControl does, without vitest (a bench runs outside the test runner).
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
  ): Promise<Record<string, unknown>> {
    return this.call('POST', `/records/${resource}`, { record });
  }

  patchRecord(
    resource: string,
    id: string,
    changes: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    return this.call('PATCH', `/records/${resource}/${encodeURIComponent(id)}`, { changes });
  }

  setFault(spec: Record<string, unknown>): Promise<{ id: string }> {
    return this.call('POST', '/faults', spec);
  }

  clearFaults(): Promise<void> {
    return this.call('DELETE', '/faults');
  }
}
