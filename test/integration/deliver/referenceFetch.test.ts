import { afterEach, describe, expect, it } from 'vitest';
import { referenceFetcher } from '../../../src/deliver/references.js';
import { getMirror, mirrorKey } from '../../../src/store/index.js';
import { clientFor } from '../../support/platform/clientFor.js';
import {
  startScriptedServer,
  type Handler,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

const V1 = '2026-01-15T07:00:00.000Z';

/**
 * Answers patient reads only from the moment `together` of them have come in: fetched one after
 * the other, the first would wait for ever (the test's time-out fails it).
 */
function patientsAnsweredTogether(together: number): Handler {
  const waiting: (() => void)[] = [];
  return (request, response) =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length >= together) for (const release of waiting) release();
    }).then(() => {
      const id = request.url?.split('/').pop() ?? '';
      if (id === 'p-unknown') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"message":"not found"}');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ _id: id, timestamp: V1, customerId: `K-${id}` }));
    });
}

describe('fetching the references a hand-over lacks', () => {
  let server: ScriptedServer | undefined;
  let temp: TempStores | undefined;

  afterEach(async () => {
    temp?.cleanup();
    await server?.close();
  });

  it('reads them side by side, keeps those found in the mirror, answers the failures', async () => {
    server = await startScriptedServer(patientsAnsweredTogether(2));
    const { client } = clientFor(server.url, 'B');
    temp = tempStores();
    const store = temp.open();
    const fetchReferences = referenceFetcher(client, store);

    const failures = await fetchReferences([
      { resource: 'patient', id: 'p-1' },
      { resource: 'patient', id: 'p-unknown' },
      { resource: 'patient', id: 'p-2' },
      { resource: 'integratedCare', id: 'ic-1' },
    ]);

    expect([...failures.keys()]).toEqual([mirrorKey('patient', 'p-unknown')]);
    expect(getMirror(store, 'patient', 'p-1')?.record).toMatchObject({ customerId: 'K-p-1' });
    expect(getMirror(store, 'patient', 'p-2')?.record).toMatchObject({ customerId: 'K-p-2' });
    // Care arrangements have no single-item read: nothing asked, nothing failed.
    expect(server.requests.map((r) => r.url).sort()).toEqual([
      '/patient/p-1',
      '/patient/p-2',
      '/patient/p-unknown',
    ]);
    await client.close();
  });
});
