import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileLabel } from '../../../src/log/index.js';
import {
  addDeadLetter,
  claimJob,
  insertJob,
  markDead,
  upsertMirror,
  type Store,
} from '../../../src/store/index.js';
import { cliFolder, type CliFolder } from '../../support/cli/cliFolder.js';
import { onDatabase } from '../../support/store/onDatabase.js';

/** A patient by values no other text in the test holds (issue 38's reproductions). */
const FLORA = {
  _id: 'f1f1f1f1-2222-4333-8444-555555555555',
  customerId: 'K-1946',
  firstName: 'Flora',
  lastName: 'Kettenis',
  birthday: '1946-08-30',
  address: 'Neißestr. 62a',
  phone: '+49 30 5550146',
  numberOfInsured: 'X946083062',
};
/** A platform's answer that quotes her in free text, and one that quotes what we never had. */
const ANSWER = `note for ${FLORA.firstName} ${FLORA.lastName} (born ${FLORA.birthday}, ${FLORA.address}) refused`;
const ERP_ANSWER = JSON.stringify({ error: 'refused', detail: 'Rosalind Quappendorf unknown' });
/** An ERP file named after its patient, and the patient it holds. */
const NORRIS_FILE = 'Norris_Arved_1933-11-23_Brueckenstr29c.json';
const NORRIS = {
  customerId: 'K-1933',
  firstName: 'Arved',
  lastName: 'Norris',
  birthday: '1933-11-23',
  address: 'Brückenstr. 29c',
};
const SEEDED = [
  'Flora',
  'Kettenis',
  '1946-08-30',
  'Neißestr',
  '5550146',
  'X946083062',
  'Quappendorf',
  'Norris',
  'Arved',
  '1933-11-23',
  'Brückenstr',
  'Brueckenstr',
];
const seededIn = (text: string) => SEEDED.filter((value) => text.includes(value));

let f: CliFolder;
const jobs = { patient: 0, delivery: 0 };

function deadJob(store: Store, job: Parameters<typeof insertJob>[1], error: string): number {
  const { id } = insertJob(store, job);
  claimJob(store, id, '2099-01-01T00:00:00.000Z');
  markDead(store, id, { attempts: 1, error, status: 422 });
  return id;
}

/** Flora in the mirror, her refused push-back and her refused hand-over; Norris's file. */
function seed(store: Store): void {
  upsertMirror(store, 'patient', FLORA, '2026-01-02T00:00:00Z');
  jobs.patient = deadJob(
    store,
    {
      kind: 'patient',
      entityKey: `patient:${FLORA.customerId}`,
      payload: { customerId: FLORA.customerId, lastName: FLORA.lastName, phone: FLORA.phone },
      supersedes: false,
    },
    `PUT /patient/{id} (patient ${FLORA._id}) answered HTTP 422: ${FLORA.lastName} refused`,
  );
  addDeadLetter(store, jobs.patient, {
    reason: 'the platform refused the write',
    httpStatus: 422,
    bodyExcerpt: ANSWER,
  });
  jobs.delivery = deadJob(
    store,
    {
      kind: 'deliver.patient',
      entityKey: `patient:${FLORA._id}`,
      payload: { resource: 'patient', id: FLORA._id, version: '2026-01-02T00:00:00Z' },
      supersedes: false,
    },
    `the ERP refused patient ${FLORA._id}: ${FLORA.lastName} is not known`,
  );
  addDeadLetter(store, jobs.delivery, {
    reason: `the ERP refused patient ${FLORA._id}: ${FLORA.lastName} is not known`,
    httpStatus: 400,
    bodyExcerpt: ERP_ANSWER,
  });
}

const lookRows = () =>
  onDatabase(
    f.database,
    (store) =>
      store.db
        .prepare(
          "SELECT subject, detail, os_user FROM operator_actions WHERE action = 'showPersonal' ORDER BY id",
        )
        .all() as { subject: string; detail: string | null; os_user: string }[],
  );

let norrisFile = '';
beforeAll(() => {
  f = cliFolder('http://127.0.0.1:9');
  onDatabase(f.database, seed);
  const folder = join(f.folder, 'erp', 'inbox', 'patient');
  mkdirSync(folder, { recursive: true });
  norrisFile = join(folder, NORRIS_FILE);
  writeFileSync(norrisFile, JSON.stringify(NORRIS));
});
afterAll(() => f.cleanup());

describe('personal values in the outputs of the operator’s tools', () => {
  it.each([
    ['queue show', () => ['queue', 'show', String(jobs.patient)]],
    ['queue show --json', () => ['queue', 'show', String(jobs.patient), '--json']],
    ['queue show of a refused hand-over', () => ['queue', 'show', String(jobs.delivery)]],
    ['queue list', () => ['queue', 'list', '--dead', '--json']],
    ['status', () => ['status']],
    ['status --json', () => ['status', '--json']],
    ['mapping preview', () => ['mapping', 'preview', 'patient', FLORA._id]],
    ['inbox check', () => ['inbox', 'check', norrisFile]],
    ['trace', () => ['trace', FLORA.customerId]],
  ])('%s masks them and records no look', async (_, args) => {
    const result = await f.cli(...args());
    expect(result.code, result.stderr).toBe(0);
    expect(seededIn(result.stdout + result.stderr)).toEqual([]);
    expect(lookRows()).toEqual([]);
  });

  it('queue show keeps what an operator acts on: ids, keys, statuses, the answer’s shape', async () => {
    const result = await f.cli('queue', 'show', String(jobs.delivery));
    expect(result.stdout).toContain(`entity key:      patient:${FLORA._id}`);
    expect(result.stdout).toContain('HTTP 400');
    expect(result.stdout).toContain('answer: {"error":"[redacted]","detail":"[redacted]"}');
  });

  it('queue show --show-personal shows them, and records the look every time', async () => {
    const shown = await f.cli('queue', 'show', String(jobs.patient), '--show-personal');
    expect(shown.code, shown.stderr).toBe(0);
    expect(seededIn(shown.stdout)).toEqual([
      'Flora',
      'Kettenis',
      '1946-08-30',
      'Neißestr',
      '5550146',
    ]);
    await f.cli('queue', 'show', String(jobs.patient), '--json', '--show-personal');
    const user = userInfo().username;
    expect(lookRows()).toEqual([
      { subject: `job:${jobs.patient}`, detail: `queue show ${jobs.patient}`, os_user: user },
      { subject: `job:${jobs.patient}`, detail: `queue show ${jobs.patient}`, os_user: user },
    ]);
    const later = await f.cli('queue', 'show', String(jobs.patient));
    expect(later.stdout).toContain(`showPersonal by ${user}`);
    expect(seededIn(later.stdout)).toEqual([]);
  });

  it('mapping preview --show-personal shows the file as the ERP gets it, and records the look', async () => {
    const before = lookRows().length;
    const shown = await f.cli('mapping', 'preview', 'patient', FLORA._id, '--show-personal');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      lastName: 'Kettenis',
      birthday: '1946-08-30',
    });
    expect(lookRows().slice(before)).toEqual([
      expect.objectContaining({
        subject: `patient:${FLORA._id}`,
        detail: `mapping preview patient ${FLORA._id}`,
      }),
    ]);
    const masked = await f.cli('mapping', 'preview', 'patient', FLORA._id);
    expect(JSON.parse(masked.stdout)).toMatchObject({
      _id: FLORA._id,
      customerId: FLORA.customerId,
      lastName: '[redacted]',
    });
  });

  it('inbox check --show-personal shows the writes as sent, and records the look by the file’s label', async () => {
    const before = lookRows().length;
    const shown = await f.cli('inbox', 'check', norrisFile, '--show-personal');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('"lastName": "Norris"');
    expect(lookRows().slice(before)).toEqual([
      expect.objectContaining({
        subject: `file:patient/${fileLabel(NORRIS_FILE)}`,
        detail: 'inbox check',
      }),
    ]);
    expect(seededIn(JSON.stringify(lookRows()))).toEqual([]);
  });
});
