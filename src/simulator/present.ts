import type { ResourceName } from '../contract/index.js';

/**
 * What responses leave out (spec document 2, "Resources and their fields"): sensitive user
 * fields, a region's postal codes and audit fields, a doctor's `draft`, and in attachment lists
 * the storage fields and internal metadata.
 */
const USER_FIELDS = new Set([
  'active',
  'salesPersonId',
  'name',
  'department',
  'firstName',
  'lastName',
  'address',
  'postalCodeId',
  'postalCode',
  'city',
  'phone',
  'mobilePhone',
  'email',
  'fax',
  '_id',
  'timestamp',
  'archived',
]);
const REGION_OMITS = ['postalCodes', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'];
const DOCTOR_OMITS = ['draft'];
const ATTACHMENT_LIST_OMITS = ['chunkSize', 'md5', 'length', 'timestamp'];
const ATTACHMENT_METADATA_OMITS = [
  'uniqueId',
  'patientApp',
  'auditId',
  'auditNodeId',
  'regionId',
  'templateId',
  'templateNodeId',
];

function without(
  record: Record<string, unknown>,
  omit: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !omit.includes(key)));
}

function presentAttachment(record: Record<string, unknown>): Record<string, unknown> {
  const metadata = record.metadata;
  const shaped = without(record, ATTACHMENT_LIST_OMITS);
  if (metadata !== null && typeof metadata === 'object') {
    shaped.metadata = without(metadata as Record<string, unknown>, ATTACHMENT_METADATA_OMITS);
  }
  return shaped;
}

/** Resources whose responses differ from the stored record; the rest stream as stored. */
export function needsShaping(resource: ResourceName, use: 'list' | 'item'): boolean {
  if (resource === 'attachment') return use === 'list';
  return resource === 'users' || resource === 'region' || resource === 'doctor';
}

export function present(
  resource: ResourceName,
  record: Record<string, unknown>,
  use: 'list' | 'item',
): Record<string, unknown> {
  switch (resource) {
    case 'users':
      return Object.fromEntries(Object.entries(record).filter(([key]) => USER_FIELDS.has(key)));
    case 'region':
      return without(record, REGION_OMITS);
    case 'doctor':
      return without(record, DOCTOR_OMITS);
    case 'attachment':
      return use === 'list' ? presentAttachment(record) : record;
    default:
      return record;
  }
}
