import { describe, expect, it } from 'vitest';
import { getLedgerEntry } from '../../../src/store/index.js';
import { startPullRig } from '../../support/daemon.js';
import { startTestSimulator } from '../../support/simulator.js';

/**
 * #23.7: an attachment a platform user adds after the first sync. The platform keeps an
 * attachment's audit fields in `metadata` (spec document 2, Attachment); a simulator that
 * stamped it like other records made the pull quarantine it for want of a version.
 */
describe('an attachment added on the platform after the first sync', () => {
  it.each(['A', 'B', 'C'] as const)(
    'reaches the ledger with the next pull (%s)',
    async (variant) => {
      const sim = await startTestSimulator({ variant, seed: 3 });
      const rig = startPullRig(sim.url, variant);
      try {
        expect((await rig.runner.runAll()).every((s) => s.ok)).toBe(true);
        await sim.control.moveClock({ offsetMs: 60_000 });
        const patients = rig.store.db
          .prepare("SELECT _id AS id FROM mirror WHERE resource = 'patient' LIMIT 1")
          .get() as { id: string };
        const added = await sim.control.createRecord('attachment', {
          filename: 'wound_2026-03-01.jpg',
          contentType: 'image/jpeg',
          metadata: { patientId: patients.id, type: 1 },
        });
        const metadata = added['metadata'] as Record<string, unknown>;
        expect(metadata).toMatchObject({ archived: false, updatedBy: 'platform-user' });
        expect(added).not.toHaveProperty('timestamp');

        await sim.control.moveClock({ offsetMs: 60_000 });
        rig.clock.advance(120_000);
        const pulls = (await rig.runner.runAll()).filter((s) => s.resource === 'attachment');
        expect(pulls.reduce((sum, s) => sum + s.quarantined, 0)).toBe(0);
        const version = String(metadata['updatedAt']);
        expect(
          getLedgerEntry(rig.store, 'attachment', String(added['_id']), version),
        ).toBeDefined();
      } finally {
        await rig.close();
        await sim.close();
      }
    },
  );
});
