import { z } from 'zod';
import type { Problem } from '../erp/messages/index.js';
import { textOf, type Body } from './payload.js';

/** The parts the kinds' inbox schemas (kinds/) are made of, so that they word problems alike. */
export const text = z.string().min(1, 'must not be empty');

export const looseList = (what: string) =>
  z.array(z.looseObject({})).min(1, `needs at least one ${what}`);

/** Whether `field` holds text: what a reference or a key must be to count as given. */
export const present = (body: Body, field: string): boolean => textOf(body, field) !== undefined;

/** The ERP knows a patient by its own customer number; it is resolved to `patientId` later. */
export const PATIENT_CUSTOMER_ID = { patientCustomerId: z.string() };

export function patientReference(body: Body): Problem[] {
  return present(body, 'patientId') || present(body, 'patientCustomerId')
    ? []
    : [{ path: 'patientId', message: 'patientId or patientCustomerId is required' }];
}

/** Without `_id` the message creates an entity, which then needs `fields`. */
export const onCreate =
  (...fields: string[]) =>
  (body: Body): Problem[] =>
    present(body, '_id')
      ? []
      : fields
          .filter((field) => body[field] === undefined || body[field] === null)
          .map((field) => ({ path: field, message: `required when no _id is given (a create)` }));
