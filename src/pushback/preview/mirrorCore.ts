import type { Contract, ResourceName } from '../../contract/index.js';
import type { PlatformCore, PlatformRecord, SendRequest } from '../../platform/index.js';
import { statusError } from '../../platform/errors.js';
import type { Clock } from '../../shared/clock.js';
import { findMirrorBy, getMirror, type Store } from '../../store/index.js';

/**
 * The record a single read would find, as far as the mirror knows it: the customer mapping by
 * the patient's customerId, an ERP order by its salesId, an article by `_id` or customerNumber.
 */
function mirrored(store: Store, resource: ResourceName, request: SendRequest) {
  const customerId = request.query?.['customerId'];
  if (resource === 'patientCustomerMapping' && typeof customerId === 'string') {
    return findMirrorBy(store, 'patient', 'customerId', customerId)[0]?.record;
  }
  const { id } = request;
  if (id === undefined) return undefined;
  if (resource === 'erpOrder') return findMirrorBy(store, resource, 'salesId', id)[0]?.record;
  const byId = getMirror(store, resource, id)?.record;
  if (byId !== undefined || resource !== 'article') return byId;
  return findMirrorBy(store, resource, 'customerNumber', id)[0]?.record;
}

/**
 * The platform as the mirror shows it, for a preview made without the network (`inbox check`,
 * re-deriving our writes after a restore): a single read finds what the mirror holds (else a
 * 404, as the platform would answer for a record it lacks), a list finds nothing new. It
 * writes nothing: the noting core (notingCore.ts) stands in front of it.
 */
export function mirrorCore(store: Store, contract: Contract, clock: Clock): PlatformCore {
  function record(resource: ResourceName, kind: string, request: SendRequest = {}) {
    const found = kind === 'get' ? mirrored(store, resource, request) : undefined;
    if (found !== undefined) return Promise.resolve(found as PlatformRecord);
    const context = { label: `${kind} ${resource}`, resource, id: request.id, secret: '' };
    return Promise.reject(statusError(context, 404, false, '', undefined));
  }
  // The mirror shows no list: a preview's job finds nothing changed since it was queued.
  const nothing = (): AsyncIterable<never> => ({
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.resolve({ done: true, value: undefined }),
    }),
  });
  const offline = () => Promise.reject(new Error('a preview does not reach the platform'));
  return {
    contract,
    record,
    send: record,
    answerStatus: () => undefined,
    list: nothing,
    listItems: nothing,
    file: offline,
    peek: offline,
    platformNow: () => clock.now(),
    skewMs: () => 0,
    outage: () => undefined,
    probe: offline,
    steppedBackMs: () => 0,
    close: () => Promise.resolve(),
    destroy: () => Promise.resolve(),
  };
}
