import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readKeysFile } from '../../../src/simulator/index.js';
import { SetupError } from '../../../src/shared/errors.js';
import { api, startTestSimulator } from '../../support/simulator.js';

describe('API keys from a --keys file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sim-keys-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts exactly the keys of the file, each with its tenant, client and right', async () => {
    const file = join(dir, 'keys.yaml');
    await writeFile(
      file,
      [
        '- { key: k-north, tenant: north, client: erp-north, attachments: true }',
        '- { key: k-south, tenant: south, client: erp-south }',
      ].join('\n'),
    );
    const keys = await readKeysFile(file);
    expect(keys[1]).toEqual({
      key: 'k-south',
      tenant: 'south',
      client: 'erp-south',
      attachments: false,
    });
    const sim = await startTestSimulator({ variant: 'C', keys });
    try {
      expect((await api(sim, 'GET', '/region', { key: 'demo-key' })).status).toBe(401);
      const north = await api(sim, 'GET', '/region', { key: 'k-north' });
      const south = await api(sim, 'GET', '/region', { key: 'k-south' });
      expect(north.status).toBe(200);
      expect(north.text).not.toBe(south.text);
      await sim.control.clearRequests();
      await api(sim, 'GET', '/region', { key: 'k-south' });
      expect((await sim.control.requests())[0]?.client).toBe('erp-south');
    } finally {
      await sim.close();
    }
  });

  it('refuses a key the resources it may not use (403), as a platform grants read rights per resource', async () => {
    const file = join(dir, 'keys.yaml');
    await writeFile(
      file,
      '- { key: k-orders, tenant: demo, client: erp-1, resources: [singleOrder, patient] }\n',
    );
    const keys = await readKeysFile(file);
    expect(keys[0]?.resources).toEqual(['singleOrder', 'patient']);
    const sim = await startTestSimulator({ variant: 'B', keys });
    try {
      const after = 'updatedAfter=2026-01-01T00:00:00Z';
      const refused = await api(sim, 'GET', `/article?status=created&${after}`, {
        key: 'k-orders',
      });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ error: 'forbidden' });
      expect(refused.text).toContain('article');
      const orders = await api(sim, 'GET', `/singleOrder?status=created&${after}`, {
        key: 'k-orders',
      });
      expect(orders.status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('names an unknown resource of a key', async () => {
    const file = join(dir, 'keys.yaml');
    await writeFile(file, '- { key: k1, tenant: t, client: c, resources: [singelOrder] }\n');
    const error = await readKeysFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    expect((error as SetupError).problems.join('\n')).toContain('singelOrder');
  });

  it('names every problem of a bad file', async () => {
    const file = join(dir, 'bad.yaml');
    await writeFile(
      file,
      '- { key: k1, tenant: t }\n- { key: k2, tenant: t, client: c, extra: 1 }\n',
    );
    const error = await readKeysFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupError);
    const problems = (error as SetupError).problems.join('\n');
    expect(problems).toContain('[0.client]');
    expect(problems).toContain('extra');
    await expect(readKeysFile(join(dir, 'missing.yaml'))).rejects.toThrow(/missing.yaml/);
  });
});
