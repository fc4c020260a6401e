import { isObject, textOf, type Body } from './payload.js';

/** The first of `fields` the message gives as text, or '' (the schema requires one of them). */
export function first(body: Body, ...fields: string[]): string {
  for (const field of fields) {
    const value = textOf(body, field);
    if (value !== undefined) return value;
  }
  return '';
}

/** The patient a message names, as `patientId` or the ERP's `customerId:<patientCustomerId>`. */
export function patientOf(body: Body): string {
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const patientId = textOf(metadata, 'patientId') ?? textOf(body, 'patientId');
  if (patientId !== undefined) return patientId;
  const customerId = textOf(body, 'patientCustomerId');
  return customerId === undefined ? '' : `customerId:${customerId}`;
}
