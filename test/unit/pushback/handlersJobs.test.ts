import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxMessage } from '../../../src/erp/adapter.js';
import {
  jobFromInbox,
  PUSH_BACK_KIND_NAMES,
  supersedingKind,
  type PushBackKindName,
} from '../../../src/pushback/index.js';
import { upsertMirror, type Store } from '../../../src/store/index.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

let stores: TempStores;
let store: Store;
beforeEach(() => {
  stores = tempStores();
  store = stores.open();
});
afterEach(() => stores.cleanup());

function message(
  kind: PushBackKindName,
  body: Record<string, unknown>,
  name = 'm1.json',
): InboxMessage {
  return { kind, source: 'file', name, key: '', sha256: 'abc123', body };
}

const keyOf = (kind: PushBackKindName, body: Record<string, unknown>) =>
  jobFromInbox(message(kind, body), store).entityKey;

describe('jobs from inbox messages', () => {
  it('keys an order status by the order _id, given or found through the mirror by salesId', () => {
    upsertMirror(store, 'directOrder', { _id: 'd-1', salesId: 'S-9' }, '2026-03-01T08:00:00Z');
    expect(keyOf('orderStatus', { orderType: 'single', id: 'o-1', status: 3 })).toBe(
      'singleOrder:o-1',
    );
    expect(keyOf('orderStatus', { orderType: 'direct', salesId: 'S-9', status: 3 })).toBe(
      'directOrder:d-1',
    );
    expect(keyOf('orderStatus', { orderType: 'single', salesId: 'S-9', status: 3 })).toBe(
      'singleOrder:salesId:S-9',
    );
  });

  it('keys every other kind by the ERP key of its entity', () => {
    expect(keyOf('erpOrder', { salesId: 'S-1' })).toBe('erpOrder:S-1');
    expect(keyOf('article', { customerNumber: 'A-1' })).toBe('article:A-1');
    expect(keyOf('patient', { customerId: 'K-1' })).toBe('patient:K-1');
    expect(keyOf('device', { serialNumber: 'SN-1' })).toBe('device:SN-1');
    expect(keyOf('patientNote', { _id: 'n-1', patientId: 'p-1' })).toBe('patientNote:n-1');
    expect(keyOf('patientNote', { patientCustomerId: 'K-1' })).toBe('patientNote:customerId:K-1');
    expect(keyOf('integratedCare', { patientId: 'p-1' })).toBe('integratedCare:p-1');
    expect(keyOf('attachment', { filename: 'a.pdf', metadata: { patientId: 'p-1' } })).toBe(
      'attachment:p-1/a.pdf',
    );
    expect(keyOf('productGroup', { name: 'WG' })).toBe('productGroup:WG');
    expect(keyOf('contractArticleGroup', { _id: 'c-1', name: 'X' })).toBe(
      'contractArticleGroup:c-1',
    );
    expect(keyOf('insuranceContract', { name: 'V' })).toBe('insuranceContract:V');
  });

  it('lets a message of a full-state kind replace an older pending one, and no other', () => {
    const superseding = PUSH_BACK_KIND_NAMES.filter(
      (kind) => jobFromInbox(message(kind, {}), store).supersedes,
    );
    expect(superseding).toEqual([
      'erpOrder',
      'article',
      'patient',
      'device',
      'contractArticleGroup',
      'insuranceContract',
    ]);
    expect(PUSH_BACK_KIND_NAMES.filter(supersedingKind)).toEqual(superseding);
  });

  it('carries the validated body and queues one message once', () => {
    const body = { customerNumber: 'A-1', name: 'x' };
    const first = jobFromInbox(message('article', body), store);
    expect(first).toMatchObject({ kind: 'article', payload: body });
    expect(jobFromInbox(message('article', body), store).idempotencyKey).toBe(first.idempotencyKey);
    expect(jobFromInbox(message('article', body, 'm2.json'), store).idempotencyKey).not.toBe(
      first.idempotencyKey,
    );
  });
});
