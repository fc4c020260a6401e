import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDeadLetter,
  claimJob,
  insertJob,
  markDead,
  markDelivered,
  recordVersion,
  upsertMirror,
  type Store,
} from '../../../src/store/index.js';
import { cliFolder, type CliFolder } from '../../support/cli/cliFolder.js';
import { onDatabase } from '../../support/store/onDatabase.js';

/** A patient by values no other text in the test holds. */
const HILDE = {
  _id: 'p-hilde',
  customerId: 'K-4711',
  firstName: 'Hildegard',
  lastName: 'Zwiebelfisch',
  address: 'Quastenweg 17',
  phone: '+49 30 5550172',
  birthday: '1941-02-03',
};
/** A phone number no record holds: only its key in the answer's JSON gives it away. */
const QUOTED_PHONE = '+49 30 5550999';
const SEEDED = ['Hildegard', 'Zwiebelfisch', 'Quastenweg', '5550172', '1941-02-03', '5550999'];

let f: CliFolder;
const jobs = { ack: 0, patient: 0 };

function deadJob(
  store: Store,
  kind: string,
  entityKey: string,
  payload: Record<string, unknown>,
  error: string,
) {
  const { id } = insertJob(store, { kind, entityKey, payload, supersedes: false });
  claimJob(store, id, '2099-01-01T00:00:00.000Z');
  markDead(store, id, { attempts: 1, error, status: 422 });
  return id;
}

/** The patient, an order for her, and two dead jobs whose answers quote her. */
function seed(store: Store): void {
  upsertMirror(store, 'patient', HILDE, '2026-01-02T00:00:00Z');
  const order = {
    _id: 'o-1',
    timestamp: '2026-01-03T00:00:00Z',
    patientId: HILDE._id,
    salesId: 'SO-4711',
    deliveryAddress: { firstName: HILDE.firstName, lastName: HILDE.lastName, street: 'x' },
  };
  upsertMirror(store, 'singleOrder', order, order.timestamp);
  recordVersion(store, 'singleOrder', 'o-1', order.timestamp, { json: JSON.stringify(order) });
  markDelivered(store, 'singleOrder', 'o-1', order.timestamp);
  jobs.ack = deadJob(
    store,
    'ack.singleOrder',
    'singleOrder:o-1',
    { status: 2 },
    `PATCH /singleOrder/{id} (singleOrder o-1) answered HTTP 422: ${HILDE.firstName} ${HILDE.lastName} is not known at ${HILDE.address}`,
  );
  addDeadLetter(store, jobs.ack, {
    reason: `refused: {"phone":"${QUOTED_PHONE}","birthday":"${HILDE.birthday}"}`,
  });
  jobs.patient = deadJob(
    store,
    'patient',
    `patient:${HILDE.customerId}`,
    { customerId: HILDE.customerId, lastName: HILDE.lastName, phone: HILDE.phone },
    `refused: ${HILDE.lastName}, phone ${HILDE.phone}`,
  );
  addDeadLetter(store, jobs.patient, { reason: `refused: ${HILDE.lastName}` });
}

const operatorActions = () =>
  onDatabase(
    f.database,
    (store) =>
      store.db.prepare('SELECT count(*) AS n FROM operator_actions').pluck().get() as number,
  );

const seededIn = (text: string) => SEEDED.filter((value) => text.includes(value));

beforeAll(() => {
  // No platform is asked: trace reads the database only.
  f = cliFolder('http://127.0.0.1:9');
  onDatabase(f.database, seed);
});
afterAll(() => f.cleanup());

describe('trace and personal values', () => {
  it.each([
    ['the order', 'o-1', []],
    ['the order as JSON', 'o-1', ['--json']],
    ['the patient by customerId', HILDE.customerId, []],
    ['the patient as JSON', HILDE.customerId, ['--json']],
  ])(
    'masks every seeded value in %s, keeps keys and job ids, and writes nothing',
    async (_, key, flags) => {
      const result = await f.cli('trace', key, ...flags);
      expect(result.code, result.stderr).toBe(0);
      expect(seededIn(result.stdout)).toEqual([]);
      expect(result.stdout).toContain('[redacted]');
      const job = key === 'o-1' ? jobs.ack : jobs.patient;
      expect(result.stdout).toContain(`job ${job} `);
      const [resource, id] = key === 'o-1' ? ['singleOrder', 'o-1'] : ['patient', HILDE._id];
      expect(result.stdout).toContain(resource);
      expect(result.stdout).toContain(id);
      expect(result.stdout).toContain('HTTP 422');
      expect(operatorActions()).toBe(0);
    },
  );

  it('shows them with --show-personal, and the next trace and queue show name who looked', async () => {
    const shown = await f.cli('trace', 'o-1', '--show-personal');
    expect(shown.code, shown.stderr).toBe(0);
    expect(seededIn(shown.stdout)).toEqual([
      'Hildegard',
      'Zwiebelfisch',
      'Quastenweg',
      '1941-02-03',
      '5550999',
    ]);
    const json = await f.cli('trace', 'o-1', '--json', '--show-personal');
    expect(JSON.parse(json.stdout)).toMatchObject({ key: 'o-1', personal: 'shown' });
    expect(seededIn(json.stdout)).toHaveLength(5);

    const user = userInfo().username;
    const later = await f.cli('trace', 'o-1');
    expect(later.stdout).toMatch(
      new RegExp(`showPersonal of singleOrder:o-1 \\(trace o-1\\) by ${user} on \\S+`),
    );
    expect(later.stdout).toContain(`showPersonal of job:${jobs.ack} (trace o-1) by ${user}`);
    expect(seededIn(later.stdout)).toEqual([]);
    const queueShow = await f.cli('queue', 'show', String(jobs.ack));
    expect(queueShow.stdout).toMatch(new RegExp(`showPersonal by ${user} on \\S+`));
    // Two looks, each on the order and on the one job whose texts held her values.
    expect(operatorActions()).toBe(4);

    const patient = await f.cli('trace', HILDE.customerId);
    expect(patient.stdout).not.toContain('showPersonal');
  });
});
