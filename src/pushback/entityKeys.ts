import { createHash } from 'node:crypto';
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

/** A value that may be personal (a note's text, a file's name) as a key holds it: hashed. */
export const hashedKeyPart = (value: string): string =>
  createHash('sha256').update(value).digest('hex').slice(0, 16);
