import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeErp, restAdapter } from '../../support/erp/restHarness.js';

const globalDispatcher = getGlobalDispatcher();
afterEach(() => setGlobalDispatcher(globalDispatcher));

describe('REST adapter: the probe behind /readyz', () => {
  it('counts any answer below 500 as an ERP that is there, without storing anything', async () => {
    const erp = await fakeErp();
    erp.script({ kind: 'status', status: 401 });
    const adapter = restAdapter({ baseUrl: `${erp.url}/api` });

    await expect(adapter.probe()).resolves.toBeUndefined();
    await expect(adapter.probe()).resolves.toBeUndefined();

    expect(erp.requests.map((seen) => `${seen.method} ${seen.url}`)).toEqual([
      'HEAD /api',
      'HEAD /api',
    ]);
  });

  it('names the ERP and its status when it answers 500 or more', async () => {
    const erp = await fakeErp();
    erp.script({ kind: 'status', status: 503 });
    const adapter = restAdapter({ baseUrl: erp.url });

    await expect(adapter.probe()).rejects.toThrow(`the ERP at ${erp.url}/ answered HTTP 503`);
  });

  it('names the ERP and the network error when nothing answers', async () => {
    const erp = await fakeErp();
    const { url } = erp;
    await erp.close();
    const adapter = restAdapter({ baseUrl: url });

    await expect(adapter.probe()).rejects.toThrow(
      new RegExp(`^the ERP at ${url}/ does not answer: .*ECONNREFUSED`),
    );
  });

  it('goes the way deliveries go, not through the process-wide HTTP agent', async () => {
    const erp = await fakeErp();
    // A process-wide agent that cannot connect anywhere, as a proxy set up for the platform
    // would be for an ERP on the local network.
    setGlobalDispatcher(new Agent({ connect: (_, done) => done(new Error('global agent'), null) }));
    const adapter = restAdapter({ baseUrl: erp.url });

    await expect(adapter.probe()).resolves.toBeUndefined();
    await expect(fetch(erp.url, { method: 'HEAD' })).rejects.toThrow();
  });
});
