import { handOverKey, inboxJobKey, type Store } from '../../src/store/index.js';

/**
 * A database of a supplier some years in, written straight into the tables (the pull and the
 * queue would take an hour for it): ORDERS orders of VERSIONS versions each (the ledger's rows),
 * each handed over by a job of its own; ERP messages with their jobs for a share of them, some
 * dead; patients and articles with the ERP's keys.
 */
export const ORDERS = 250_000;
export const VERSIONS = 4;
export const LEDGER_ROWS = ORDERS * VERSIONS;
const PATIENTS = 20_000;
const ARTICLES = 20_000;
/** Every this many orders got an ERP message (an inbox file with its job), and a number. */
const MESSAGE_EVERY = 5;
/** Every this many messages' jobs died (the dead letters page). */
const DEAD_EVERY = 50;

const T0 = Date.parse('2024-01-01T00:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

export const orderId = (n: number) =>
  `0b7e${String(n).padStart(8, '0')}-4c1a-4d2e-9f00-5a6b7c8d9e0f`;
export const salesId = (n: number) => `SO-${String(n).padStart(7, '0')}`;
export const erpOrderNumber = (n: number) => `AB-${String(n).padStart(7, '0')}`;
export const inboxFile = (n: number) => `Rueckmeldung-${String(n).padStart(7, '0')}.json`;
export const customerId = (n: number) => `K-${String(n).padStart(6, '0')}`;

function orders(store: Store): void {
  const mirror = store.db.prepare(
    `INSERT INTO mirror (resource, _id, version, sales_id, json, updated_at)
     VALUES ('singleOrder', @id, @version, @salesId, @json, @now)`,
  );
  const ledger = store.db.prepare(
    `INSERT INTO ledger (resource, _id, version, seen_at, delivered_at, ack_state, sha256, changed)
     VALUES ('singleOrder', @id, @version, @at, @at, 'done', @sha, @changed)`,
  );
  const job = store.db.prepare(
    `INSERT INTO queue (kind, entity_key, payload, idempotency_key, state, attempts, created_at,
       updated_at, next_attempt_at, batch_id)
     VALUES ('deliver.singleOrder', @entity, @payload, @key, 'done', 0, @at, @at, @at, NULL)`,
  );
  for (let n = 0; n < ORDERS; n += 1) {
    const id = orderId(n);
    const versions = Array.from({ length: VERSIONS }, (_, v) => at(n + v * 10));
    for (const [v, version] of versions.entries()) {
      const changed = v === 0 ? '"new"' : '["status","deliveryAddress.street"]';
      ledger.run({ id, version, at: version, sha: 'f'.repeat(64), changed });
    }
    const version = versions.at(-1) ?? '';
    const withNumber = n % MESSAGE_EVERY === 0;
    const record = {
      _id: id,
      status: 3,
      salesId: salesId(n),
      patientId: `pat-${n % PATIENTS}`,
      ...(withNumber ? { erpOrderNumber: erpOrderNumber(n) } : {}),
      timestamp: version,
    };
    mirror.run({ id, version, salesId: salesId(n), json: JSON.stringify(record), now: version });
    const payload = JSON.stringify({ resource: 'singleOrder', id, version });
    job.run({
      entity: `singleOrder:${id}`,
      payload,
      key: handOverKey('singleOrder', id, version),
      at: version,
    });
  }
}

function messages(store: Store): void {
  const message = store.db.prepare(
    `INSERT INTO inbox_messages (kind, source, name, sha256, body, received_at, state, processed_at,
       entity, content)
     VALUES ('orderStatus', 'file', @name, @sha, '', @at, 'done', @at, @entity, @sha)`,
  );
  const job = store.db.prepare(
    `INSERT INTO queue (kind, entity_key, payload, idempotency_key, state, attempts, created_at,
       updated_at, next_attempt_at, last_error, last_status)
     VALUES ('orderStatus', @entity, @payload, @key, @state, @attempts, @at, @at, @at, @error, @status)`,
  );
  const letter = store.db.prepare(
    `INSERT INTO dead_letters (job_id, reason, http_status, dead_at) VALUES (@job, @reason, 400, @at)`,
  );
  for (let n = 0; n < ORDERS; n += MESSAGE_EVERY) {
    const entity = `singleOrder:${orderId(n)}`;
    const sha = n.toString(16).padStart(64, '0');
    const name = inboxFile(n);
    const when = at(n + 60);
    message.run({ name, sha, at: when, entity });
    const dead = (n / MESSAGE_EVERY) % DEAD_EVERY === 0;
    const error = dead
      ? `PATCH /singleOrder/{id} (singleOrder ${orderId(n)}) answered HTTP 400; the platform rejected the request`
      : null;
    const { lastInsertRowid } = job.run({
      entity,
      payload: JSON.stringify({
        orderType: 'single',
        id: orderId(n),
        status: 4,
        salesId: salesId(n),
      }),
      key: inboxJobKey({ kind: 'orderStatus', source: 'file', name, sha256: sha }),
      state: dead ? 'dead' : 'done',
      attempts: dead ? 1 : 0,
      at: when,
      error,
      status: dead ? 400 : null,
    });
    if (dead) letter.run({ job: Number(lastInsertRowid), reason: error, at: when });
  }
}

function masterData(store: Store): void {
  const mirror = store.db.prepare(
    `INSERT INTO mirror (resource, _id, version, customer_id, customer_number, json, updated_at)
     VALUES (@resource, @id, @version, @customerId, @customerNumber, @json, @version)`,
  );
  for (let n = 0; n < PATIENTS; n += 1) {
    const id = `pat-${n}`;
    const json = JSON.stringify({
      _id: id,
      customerId: customerId(n),
      lastName: `Name${n}`,
      firstName: 'Erika',
    });
    mirror.run({
      resource: 'patient',
      id,
      version: at(n),
      customerId: customerId(n),
      customerNumber: null,
      json,
    });
  }
  for (let n = 0; n < ARTICLES; n += 1) {
    const id = `art-${n}`;
    const number = `ART-${String(n).padStart(6, '0')}`;
    const json = JSON.stringify({ _id: id, customerNumber: number, name: `Artikel ${n}` });
    mirror.run({
      resource: 'article',
      id,
      version: at(n),
      customerId: null,
      customerNumber: number,
      json,
    });
  }
}

/** Fills the store as described above, in one transaction per table group. */
export function fillStore(store: Store): void {
  for (const fill of [orders, messages, masterData]) store.db.transaction(() => fill(store))();
}
