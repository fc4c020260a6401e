import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/shared/clock.js';
import { insertJob, openStore, upsertMirror } from '../../../src/store/index.js';
import { cliFolder, type CliFolder } from '../../support/cli/cliFolder.js';

const PATIENT = {
  _id: 'p-7',
  customerId: 'K-7',
  firstName: 'Wilhelmine',
  lastName: 'Krautstampfer',
  phone: '+49 30 5550199',
};
const SEEDED = ['Wilhelmine', 'Krautstampfer', '5550199'];

let f: CliFolder;
beforeEach(() => {
  // No platform is asked: backup and forget work on the database and files only.
  f = cliFolder('http://127.0.0.1:9');
});
afterEach(() => f.cleanup());

/** The database with one patient and, when asked, a pending job for them. */
function seed(pendingJob: boolean): void {
  fs.mkdirSync(path.dirname(f.database), { recursive: true });
  const store = openStore({ path: f.database, clock: systemClock });
  upsertMirror(store, 'patient', PATIENT, '2026-01-02T00:00:00Z');
  if (pendingJob) {
    insertJob(store, {
      kind: 'patient',
      entityKey: `patient:${PATIENT.customerId}`,
      payload: { customerId: PATIENT.customerId, lastName: PATIENT.lastName },
      supersedes: false,
    });
  }
  store.close();
}

const holds = (file: string): string[] => {
  const bytes = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
  return SEEDED.filter((value) => bytes.includes(Buffer.from(value)));
};

describe('homecare-sync backup', () => {
  it('writes a 0600 copy, refuses to replace a file, and keeps retention.backupsKept', async () => {
    f.cleanup();
    f = cliFolder('http://127.0.0.1:9', { retention: { backupsKept: 1 } });
    seed(false);
    const first = await f.cli('backup', 'b-1.db');
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^backup .*b-1\.db: \d+ bytes, mode 0600\n$/);
    expect(fs.statSync(path.join(f.folder, 'b-1.db')).mode & 0o777).toBe(0o600);
    expect(holds(path.join(f.folder, 'b-1.db'))).toEqual(SEEDED);

    const again = await f.cli('backup', 'b-1.db');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');

    const second = await f.cli('backup', 'b-2.db');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`removed old backup ${path.join(f.folder, 'b-1.db')}`);
    expect(fs.existsSync(path.join(f.folder, 'b-1.db'))).toBe(false);
  });
});

describe('a copy a killed dry run left', () => {
  it('is listed by status, and removed at the start of the next command that opens the database', async () => {
    seed(false);
    const stale = path.join(path.dirname(f.database), '.dry-run-999999999-k1');
    const running = path.join(path.dirname(f.database), `.dry-run-${process.pid}-r1`);
    for (const folder of [stale, running]) {
      fs.mkdirSync(folder);
      fs.copyFileSync(f.database, path.join(folder, 'sync.db'));
    }

    const status = await f.cli('status');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(
      `dry-run copy ${stale}: left by a dry run that ended (process 999999999); removed at the start of the next command that opens the database`,
    );
    expect(status.stdout).toContain(
      `dry-run copy ${running}: a dry run is running (process ${process.pid})`,
    );
    const json = JSON.parse((await f.cli('status', '--json')).stdout) as Record<string, unknown>;
    expect(json['dryRunCopies']).toHaveLength(2);
    expect(json['dryRunCopies']).toEqual(
      expect.arrayContaining([
        { path: running, pid: process.pid, running: true },
        { path: stale, pid: 999999999, running: false },
      ]),
    );
    expect(fs.existsSync(stale)).toBe(true);

    const list = await f.cli('queue', 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toContain(`removed ${stale}: the copy of the database a dry run left`);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(running)).toBe(true);
    fs.rmSync(running, { recursive: true });
  });
});

describe('homecare-sync forget patient', () => {
  it('refuses while work is unresolved, then with --force erases the database and the backup', async () => {
    seed(true);
    expect((await f.cli('backup', 'b-1.db')).code).toBe(0);

    const refused = await f.cli('forget', 'patient', 'K-7', '--customer-id');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'forget refused: patient with customerId K-7 has unresolved work',
    );
    expect(refused.stderr).toContain('queue job 1');

    // A copy a killed dry run left (its process gone), and one whose process still runs.
    const killed = path.join(path.dirname(f.database), '.dry-run-999999999-a1');
    const running = path.join(path.dirname(f.database), `.dry-run-${process.pid}-b2`);
    for (const folder of [killed, running]) {
      fs.mkdirSync(folder);
      fs.copyFileSync(f.database, path.join(folder, 'copy.db'));
    }

    const forced = await f.cli('forget', 'patient', 'K-7', '--customer-id', '--force');
    expect(forced.stdout).toContain(`dry-run copy removed: ${killed}`);
    expect(fs.existsSync(killed)).toBe(false);
    expect(fs.existsSync(running)).toBe(true);
    fs.rmSync(running, { recursive: true });
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    expect(forced.stdout).toContain('erased patient p-7 (customerId K-7), forced');
    expect(forced.stdout).toContain('erased in backup:');
    for (const file of [f.database, `${f.database}-wal`, path.join(f.folder, 'b-1.db')]) {
      expect(holds(file), file).toEqual([]);
    }
    expect(forced.stdout + forced.stderr).not.toMatch(/Krautstampfer|Wilhelmine/);
  });

  it('takes the customerId or the _id (a UUID) without a flag, and refuses a key that names two patients', async () => {
    const uuid = '7e1d2c3b-4a5f-4e6d-8c7b-9a0f1e2d3c4b';
    fs.mkdirSync(path.dirname(f.database), { recursive: true });
    const store = openStore({ path: f.database, clock: systemClock });
    upsertMirror(store, 'patient', { ...PATIENT, _id: uuid }, '2026-01-02T00:00:00Z');
    upsertMirror(
      store,
      'patient',
      { _id: 'K-8', customerId: 'K-9', lastName: 'Amselfeld' },
      '2026-01-02T00:00:00Z',
    );
    upsertMirror(
      store,
      'patient',
      { _id: 'p-8', customerId: 'K-8', lastName: 'Drosselgasse' },
      '2026-01-02T00:00:00Z',
    );
    store.close();

    const byCustomerId = await f.cli('forget', 'patient', 'K-7');
    expect(byCustomerId.stdout).toContain(`erased patient ${uuid} (customerId K-7)`);
    expect(byCustomerId).toMatchObject({ code: 0, stderr: '' });
    expect(holds(f.database)).toEqual([]);

    const byId = await f.cli('forget', 'patient', uuid);
    expect(byId.stdout).toContain(`erased patient ${uuid} (customerId K-7)`);

    const both = await f.cli('forget', 'patient', 'K-8');
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(
      'forget: K-8 is the customerId of patient p-8 and the _id of patient K-8; say which with --customer-id or --id',
    );
    const flagged = await f.cli('forget', 'patient', 'K-8', '--id');
    expect(flagged.stdout).toContain('erased patient K-8 (customerId K-9)');
  });

  it('names an unknown patient and exits 1', async () => {
    seed(false);
    const result = await f.cli('forget', 'patient', 'p-none');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'no patient with the _id or customerId p-none is known to the database; nothing erased',
    );
  });
});
