import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseConfigSchema } from '../../../src/config/baseSchema.js';
import {
  backupStore,
  listBackups,
  prunePass,
  pruneInboxArchive,
  retentionEntries,
} from '../../../src/housekeeping/index.js';
import { claimJob, completeJob, insertJob, type Store } from '../../../src/store/index.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

const DAY = 86_400_000;

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
});
afterEach(() => temp.cleanup());

function archiveDay(inbox: string, kind: string, day: string): string {
  const folder = path.join(inbox, '.archive', kind, day);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'a.json'), '{}');
  return folder;
}

describe('pruneInboxArchive', () => {
  it('removes the day folders past retention, with a day to spare for the time zone', async () => {
    const inbox = path.join(temp.folder, 'inbox');
    const old = archiveDay(inbox, 'patient', '2026-01-01');
    const spare = archiveDay(inbox, 'patient', '2026-01-13');
    const recent = archiveDay(inbox, 'orderStatus', '2026-01-15');
    const other = path.join(inbox, '.archive', 'patient', 'keep-me');
    fs.mkdirSync(other);

    expect(await pruneInboxArchive(inbox, '2026-01-14T08:00:00.000Z')).toBe(1);
    expect([old, spare, recent, other].map((folder) => fs.existsSync(folder))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(
      await pruneInboxArchive(path.join(temp.folder, 'none'), '2026-01-14T00:00:00.000Z'),
    ).toBe(0);
  });
});

describe('prunePass', () => {
  it('prunes the database, the inbox archive and the backups as the config says', async () => {
    const retention = baseConfigSchema.shape.retention.parse({ days: 10, backupsKept: 1 });
    expect(retention).toMatchObject({ jobs: 10, inboxFiles: 10, backups: 10, batchSize: 500 });
    const inbox = path.join(temp.folder, 'inbox');
    const folder = archiveDay(inbox, 'patient', '2026-01-15');
    const job = (key: string) =>
      insertJob(store, { kind: 'k', entityKey: key, payload: {}, supersedes: false }).id;
    const done = job('a');
    claimJob(store, done, '2099-01-01T00:00:00.000Z');
    completeJob(store, done);
    await backupStore(store, path.join(temp.folder, 'b-1.db'));
    temp.clock.advance(20 * DAY);
    job('b');
    await backupStore(store, path.join(temp.folder, 'b-2.db'));

    const report = await prunePass({
      store,
      logger: pino({ enabled: false }),
      retention,
      inbox,
      stopping: () => false,
    });

    expect(report.removed.jobs).toBe(1);
    expect(fs.existsSync(folder)).toBe(false);
    expect(listBackups(store).map((b) => path.basename(b.path))).toEqual(['b-2.db']);
  });
});

describe('prunePass and the copies of killed dry runs', () => {
  it('removes a copy whose dry run ended, keeps a running one, and logs what it removed', async () => {
    const beside = (name: string) => {
      const folder = path.join(path.dirname(store.path), name);
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'sync.db'), 'a copy with every patient');
      return folder;
    };
    const stale = beside('.dry-run-999999999-abc123');
    const running = beside(`.dry-run-${process.pid}-def456`);
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const retention = baseConfigSchema.shape.retention.parse({});
    await prunePass({ store, logger, retention, inbox: undefined, stopping: () => false });

    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(running)).toBe(true);
    expect(lines.find((line) => line['msg'] === 'retention: pruned')).toMatchObject({
      dryRunCopies: [stale],
    });
  });
});

describe('retentionEntries', () => {
  const deps = (given: Record<string, unknown>) => ({
    store,
    logger: pino({ enabled: false }),
    retention: baseConfigSchema.shape.retention.parse(given),
    inbox: undefined,
    stopping: () => false,
  });

  it('schedules retention by retention.schedule, and nothing with enabled: false', async () => {
    const [entry, ...rest] = retentionEntries(deps({ schedule: '5 3 * * *', days: 1 }));
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ name: 'retention', cron: '5 3 * * *' });
    const done = insertJob(store, { kind: 'k', entityKey: 'a', payload: {}, supersedes: false }).id;
    claimJob(store, done, '2099-01-01T00:00:00.000Z');
    completeJob(store, done);
    insertJob(store, { kind: 'k', entityKey: 'b', payload: {}, supersedes: false });
    temp.clock.advance(2 * DAY);
    await entry?.run();
    expect(store.db.prepare('SELECT count(*) FROM queue').pluck().get()).toBe(1);

    expect(retentionEntries(deps({ enabled: false }))).toEqual([]);
  });
});
