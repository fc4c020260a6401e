import { fillPath, type Contract, type ResourceName } from '../contract/index.js';
import { prepare } from '../platform/index.js';
import { PermanentError } from '../shared/errors.js';
import { findMirrorBy, type Store } from '../store/index.js';
import { textOf, without, type Body } from './payload.js';

/** What a plan may read: the database and the contract, never the platform. */
export interface PlanView {
  store: Store;
  contract: Contract;
}

/** One write a message would make on the platform, as far as the database tells. */
export interface PlannedWrite {
  resource: ResourceName;
  operation: 'create' | 'replace' | 'update';
  /** The `{id}` of an item path. */
  id?: string;
  /** What the request carries. */
  body: Body;
  /** The handler fills in the rest of the body from the platform's record before sending. */
  completedFromPlatform?: true;
}

/**
 * The writes a message of a kind would cause, and in words what only the run decides (a look-up
 * on the platform, a check against the order's status) or what stops it. The kind's descriptor
 * plans it from the same mirror look-ups its handler makes; `inbox check` prints it.
 */
export interface Plan {
  writes: PlannedWrite[];
  notes: string[];
}

/** A create when the message gives no `_id`, else `operation` on that `_id`. */
export function byId(
  resource: ResourceName,
  operation: 'replace' | 'update',
  body: Body,
  notes: string[] = [],
): Plan {
  const id = textOf(body, '_id');
  const write: PlannedWrite =
    id === undefined
      ? { resource, operation: 'create', body: without(body, '_id') }
      : { resource, operation, id, body: without(body, '_id') };
  return { writes: [write], notes };
}

/**
 * `body` with its patient as withPatientId makes it: `patientCustomerId` resolved to `patientId`
 * through the mirror; a customerId the mirror lacks is named in a note (the run asks the
 * platform's customer mapping where it has one, else the job waits for the patient).
 */
export function plannedPatient(body: Body, store: Store): { body: Body; notes: string[] } {
  const customerId = textOf(body, 'patientCustomerId');
  const rest = without(body, 'patientCustomerId');
  if (customerId === undefined || textOf(body, 'patientId') !== undefined) {
    return { body: rest, notes: [] };
  }
  const known = findMirrorBy(store, 'patient', 'customerId', customerId)[0];
  if (known !== undefined) return { body: { ...rest, patientId: known.id }, notes: [] };
  return {
    body: rest,
    notes: [
      `patientId: no patient with customerId ${customerId} is in the mirror; the run asks the platform (its customer mapping, where it has one), else the job waits for the patient`,
    ],
  };
}

/** A planned write as the platform client would send it, or why the contract refuses it. */
export type PlannedRequest =
  { method: string; path: string; body: Body } | { refused: string; body: Body };

/**
 * The method and path of `write` through the client's own check of the contract (`prepare`):
 * an operation the variant lacks, or a request the contract forbids, is refused as the client
 * would refuse it. A body the handler completes from the platform is not checked as it stands.
 */
export function plannedRequest(contract: Contract, write: PlannedWrite): PlannedRequest {
  const { resource, operation, id, body } = write;
  const bound = contract.find(resource, operation);
  if (write.completedFromPlatform && bound !== undefined) {
    const path = id === undefined ? bound.pathTemplate : fillPath(bound.pathTemplate, id);
    return { method: bound.method, path, body };
  }
  try {
    const request = prepare(contract, '', resource, operation, {
      ...(id === undefined ? {} : { id }),
      body,
    });
    return { method: request.method, path: request.path, body };
  } catch (error) {
    if (!(error instanceof PermanentError)) throw error;
    return { refused: error.message, body };
  }
}
