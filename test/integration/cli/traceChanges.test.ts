import { describe, expect, it } from 'vitest';
import { useAppCycle } from '../../support/appCycle.js';
import { runCli } from '../../support/cli.js';
import { api } from '../../support/simulator.js';

type Order = Record<string, unknown> & { _id: string; deliveryAddress: Record<string, unknown> };

interface TracedEvent {
  kind: string;
  what: string;
  changed?: string[];
  new?: true;
}

/** An address no seeded record holds: found in no output, or a value leaked. */
const NEW_ADDRESS = 'Quastenweg 4711';

/**
 * #27.1: `trace` shows what each pulled version changed, by field name and never by value,
 * though the database keeps only the latest body of a record.
 */
describe('trace: what each pulled version changed', () => {
  const cycle = useAppCycle({ variant: 'B' });

  /** An order pulled, then changed on the platform (status and street), pulled again. */
  async function changedOrder(): Promise<{ order: Order; oldAddress: string }> {
    const { sim } = cycle();
    const listed = await api(
      sim,
      'GET',
      '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
      { key: 'demo-key-2' },
    );
    const order = (listed.json as Order[])[0];
    if (order === undefined) throw new Error('the seed has no created singleOrder');
    await cycle().pass(['patient', 'article', 'integratedCare', 'singleOrder']);
    const now = await sim.control.getRecord('singleOrder', order._id);
    const address = now['deliveryAddress'] as Record<string, unknown>;
    await sim.control.patchRecord('singleOrder', order._id, {
      status: now['status'] === 4 ? 5 : 4,
      deliveryAddress: { ...address, address: NEW_ADDRESS },
    });
    await cycle().pass(['singleOrder']);
    return { order, oldAddress: String(address['address']) };
  }

  it('names the changed fields of a version pulled again, a first-seen one as new, no values', async () => {
    const { order, oldAddress } = await changedOrder();
    const config = cycle().rig.configPath;

    const text = await runCli(['trace', order._id, '--config', config]);
    expect(text.code, text.stderr).toBe(0);
    const pulled = text.stdout.split('\n').filter((line) => line.includes('pulled version'));
    expect(pulled, text.stdout).toHaveLength(2);
    expect(pulled[0]).toMatch(/pulled version \S+ \(run \d+\): new$/);
    expect(pulled[1]).toMatch(
      /pulled version \S+ \(run \d+\): changed deliveryAddress\.address, status$/,
    );

    const json = await runCli(['trace', order._id, '--json', '--config', config]);
    expect(json.code, json.stderr).toBe(0);
    const [record] = (JSON.parse(json.stdout) as { records: { events: TracedEvent[] }[] }).records;
    const versions = record?.events.filter((event) => event.kind === 'version') ?? [];
    expect(versions.map(({ changed, new: first }) => ({ changed, new: first }))).toEqual([
      { changed: undefined, new: true },
      { changed: ['deliveryAddress.address', 'status'], new: undefined },
    ]);

    for (const output of [text.stdout, json.stdout]) {
      expect(output).not.toContain(NEW_ADDRESS);
      expect(output).not.toContain(oldAddress);
    }
  });
});
