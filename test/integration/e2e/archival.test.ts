import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceName, Variant } from '../../../src/contract/index.js';
import { countUndelivered } from '../../../src/store/index.js';
import { useAppCycle } from '../../support/appCycle.js';
import { api } from '../../support/simulator.js';

type Row = Record<string, unknown>;
const EPOCH = '1970-01-01T00:00:00.000Z';
const PULLED: readonly ResourceName[] = [
  'patient',
  'article',
  'integratedCare',
  'singleOrder',
  'attachment',
];

/**
 * Issue #23.6 as design.md reads it: a record a platform user archives (or an order set to
 * Deleted) reaches the ERP as an archival event in `<outbox>/archived/<resource>/`, once per
 * archival, beside the archived version's own record file; the overlap window pulling the
 * archived version again adds nothing.
 */
describe.each(['A', 'B', 'C'] as Variant[])(
  'variant %s: archival events in the file drop',
  (variant) => {
    const cycle = useAppCycle({ variant });

    const pass = async () => {
      const report = await cycle().pass(PULLED);
      expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
    };
    /** Passes over more than the overlap window (120 s): the archived version is listed again. */
    const overlapPasses = async () => {
      for (let round = 0; round < 4; round++) await pass();
    };
    const eventFiles = (resource: string): string[] => {
      try {
        return readdirSync(join(cycle().rig.outbox, 'archived', resource))
          .filter((name) => !name.startsWith('.') && !name.endsWith('.done'))
          .sort();
      } catch {
        return [];
      }
    };
    const eventOf = (resource: string, name: string): Row =>
      JSON.parse(readFileSync(join(cycle().rig.outbox, 'archived', resource, name), 'utf8')) as Row;
    const recordFiles = (resource: string, id: string) =>
      cycle()
        .rig.outboxFiles(resource)
        .filter((name) => name.startsWith(`${id}_`));
    const eventRows = (resource: string) =>
      cycle()
        .app.store.db.prepare<[string], { n: number }>(
          `SELECT count(*) AS n FROM queue WHERE kind = 'deliver.' || ? AND payload ->> '$.archival'`,
        )
        .get(resource)?.n;

    const liveOrder = async (): Promise<string> => {
      const list = `/singleOrder?status=created&updatedAfter=${EPOCH}`;
      const orders = (await api(cycle().sim, 'GET', list)).json as Row[];
      const order = orders.find((o) => o.archived !== true);
      if (order === undefined) throw new Error('the seed has no live created single order');
      return String(order._id);
    };

    it('hands over one event when a platform user archives an order, and the archived version', async () => {
      const { sim } = cycle();
      const id = await liveOrder();
      await pass();
      expect(recordFiles('singleOrder', id)).toHaveLength(1);
      expect(eventFiles('singleOrder')).toEqual([]);

      const archived = await sim.control.patchRecord('singleOrder', id, { archived: true });
      await pass();
      await overlapPasses();

      const stamp = String(archived.timestamp);
      const files = eventFiles('singleOrder');
      expect(files).toEqual([`${id}_${stamp.replaceAll(':', '-')}.archived.json`]);
      expect(eventOf('singleOrder', files[0] ?? '')).toEqual({
        event: 'archived',
        reason: 'archived',
        resource: 'singleOrder',
        _id: id,
        version: stamp,
        archivedAt: stamp,
        detectedAt: expect.any(String) as unknown,
      });
      // The version itself still goes out as any version does: the ERP may use either.
      expect(recordFiles('singleOrder', id)).toContain(`${id}_${stamp.replaceAll(':', '-')}.json`);
      expect(eventRows('singleOrder')).toBe(1);
      expect(countUndelivered(cycle().app.store)).toBe(0);
    });

    it('hands over a Deleted order as an archival with reason deleted, once', async () => {
      const { sim } = cycle();
      const id = await liveOrder();
      await pass();
      const deleted = await sim.control.patchRecord('singleOrder', id, { status: -1 });
      await pass();
      await overlapPasses();
      const files = eventFiles('singleOrder');
      expect(files).toHaveLength(1);
      expect(eventOf('singleOrder', files[0] ?? '')).toMatchObject({
        reason: 'deleted',
        _id: id,
        version: deleted.timestamp,
      });
      // Archiving it afterwards is no second archival: it left use once.
      await sim.control.patchRecord('singleOrder', id, { archived: true });
      await pass();
      await overlapPasses();
      expect(eventFiles('singleOrder')).toHaveLength(1);
    });

    it('hands over no event for a record first seen archived, nor for live changes', async () => {
      const { sim } = cycle();
      const id = await liveOrder();
      await pass();
      await sim.control.patchRecord('singleOrder', id, { annotation: 'ring twice' });
      await pass();
      await overlapPasses();
      expect(eventFiles('singleOrder')).toEqual([]);
      // The seed's orders archived before the first pull came in through status=archived.
      const archivedList = `/singleOrder?status=archived&updatedAfter=${EPOCH}`;
      const seeded = (await api(sim, 'GET', archivedList)).json as Row[];
      expect(seeded.length).toBeGreaterThan(0);
      for (const order of seeded)
        expect(recordFiles('singleOrder', String(order._id))).not.toEqual([]);
    });

    if (variant !== 'B') {
      it('hands over an attachment that vanished from the whole list at the reconciliation, once', async () => {
        const { sim, app } = cycle();
        const attachments = (await api(sim, 'GET', `/attachment?createdAfter=${EPOCH}`))
          .json as Row[];
        const [gone, kept] = attachments;
        if (gone === undefined || kept === undefined)
          throw new Error('the seed has no attachments');
        await pass();
        // The list leaves archived attachments out and this variant has no filter for them.
        await sim.control.patchRecord('attachment', String(gone._id), { archived: true });
        await overlapPasses();
        expect(eventFiles('attachment')).toEqual([]);

        for (let night = 0; night < 2; night++) {
          const reconciled = await app.runner.reconcile(7);
          const summary = reconciled.find((s) => s.resource === 'attachment');
          expect(summary?.ok).toBe(true);
          if (night === 0) expect(summary?.notice).toContain('1 attachment record(s)');
          await app.worker.runUntilEmpty();
        }
        expect(eventFiles('attachment')).toHaveLength(1);
        expect(eventOf('attachment', eventFiles('attachment')[0] ?? '')).toMatchObject({
          reason: 'vanished',
          resource: 'attachment',
          _id: gone._id,
          archivedAt: null,
        });
        expect(eventRows('attachment')).toBe(1);
        expect(countUndelivered(app.store)).toBe(0);
      });
    }

    if (variant === 'B') {
      it('hands over one event for an archived article (status=archived) and attachment (archivedAfter)', async () => {
        const { sim } = cycle();
        const list = `/article?status=created&updatedAfter=${EPOCH}`;
        const article = ((await api(sim, 'GET', list)).json as Row[]).find((a) => !a.archived);
        const attachments = (await api(sim, 'GET', `/attachment?createdAfter=${EPOCH}`))
          .json as Row[];
        const attachment = attachments[0];
        if (article === undefined || attachment === undefined)
          throw new Error('the seed has no live article or attachment');
        await pass();
        await sim.control.patchRecord('article', String(article._id), { archived: true });
        await sim.control.patchRecord('attachment', String(attachment._id), { archived: true });
        await pass();
        await overlapPasses();
        expect(eventFiles('article')).toHaveLength(1);
        expect(eventFiles('attachment')).toHaveLength(1);
        expect(eventOf('attachment', eventFiles('attachment')[0] ?? '')).toMatchObject({
          reason: 'archived',
          resource: 'attachment',
          _id: attachment._id,
        });
        expect(eventRows('article')).toBe(1);
        expect(eventRows('attachment')).toBe(1);
      });
    }
  },
);
