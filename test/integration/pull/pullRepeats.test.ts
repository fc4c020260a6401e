import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { getLedgerEntry, listQuarantine, listStoredJobs } from '../../../src/store/index.js';
import { createdOrdersPull, type PullRig } from '../../support/daemon.js';
import {
  startScriptedServer,
  type Handler,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

/** Answers every list with these items, written exactly as given (spacing and number forms). */
function listOf(texts: () => readonly string[]): Handler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(`[${texts().join(',')}]`);
  };
}

const order = (id: string, version: string, fields = '"status":0') =>
  `{"_id":"${id}","timestamp":"${version}","patientId":"p-1",${fields}}`;

describe('pulling versions the ledger holds and new ones', () => {
  let server: ScriptedServer | undefined;
  let rig: PullRig | undefined;

  afterEach(async () => {
    await rig?.close();
    await server?.close();
  });

  async function start(texts: () => readonly string[], batchSize = 500) {
    server = await startScriptedServer(listOf(texts));
    const started = createdOrdersPull(server.url, { batchSize });
    rig = started.rig;
    return started;
  }

  it('keeps and hashes each record as the platform wrote it, not as serialised again', async () => {
    const text = order('o-1', '2026-03-01T07:00:00.000Z', '"weight":2.50,"note":"caf\\u00e9"');
    const { rig, pull } = await start(() => [`\n  ${text}\n`]);
    expect(await pull()).toMatchObject({ ok: true, fresh: 1 });

    const mirrored = rig.store.db
      .prepare("SELECT json FROM mirror WHERE resource = 'singleOrder' AND _id = 'o-1'")
      .get() as { json: string };
    expect(mirrored.json).toBe(text);
    const entry = getLedgerEntry(rig.store, 'singleOrder', 'o-1', '2026-03-01T07:00:00.000Z');
    expect(entry?.sha256).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('knows a version the ledger holds by its identity and text: a repeat, not checked again', async () => {
    const version = '2026-03-01T07:00:00.000Z';
    let items = [order('o-1', version)];
    const { rig, pull } = await start(() => items);
    expect(await pull()).toMatchObject({ ok: true, fresh: 1, repeats: 0 });

    // The same version listed again beside a new record out of the contract: the one handed
    // over already is not checked again, so nothing happens to it.
    items = [order('o-1', version), order('o-2', version, '"status":"x"')];
    expect(await pull()).toMatchObject({ ok: true, fetched: 2, fresh: 0, repeats: 1 });
    expect(listQuarantine(rig.store).map((entry) => entry.recordId)).toEqual(['o-2']);
    expect(listStoredJobs(rig.store, ['pending'], -1, 'deliver.')).toHaveLength(1);
  });

  it('counts repeats and new versions alike across batches', async () => {
    const versions = ['2026-03-01T07:00:00.000Z', '2026-03-01T07:01:00.000Z'];
    let items = [1, 2, 3, 4, 5].map((n) => order(`o-${n}`, versions[0] ?? ''));
    const { rig, pull } = await start(() => items, 2);
    expect(await pull()).toMatchObject({ ok: true, fetched: 5, fresh: 5, repeats: 0 });

    items = [1, 2, 3, 4, 5].map((n) => order(`o-${n}`, versions[n % 2] ?? ''));
    expect(await pull()).toMatchObject({ ok: true, fetched: 5, fresh: 3, repeats: 2 });
    expect(listStoredJobs(rig.store, ['pending'], -1, 'deliver.')).toHaveLength(8);
  });
});
