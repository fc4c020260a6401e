/**
 * Fields that carry personal data of patients, care givers, doctors and users. Logs never
 * show them; `queue show` masks them. Listed by field name wherever they occur in a record.
 */
export const PERSONAL_FIELDS = [
  'firstName',
  'lastName',
  'name',
  'birthday',
  'address',
  'additionalAddress',
  'additionalAddress2',
  'street',
  'postalCode',
  'city',
  'phone',
  'mobilePhone',
  'fax',
  'email',
  'numberOfInsured',
  'insuranceNumber',
  'noteText',
  'comment',
  'deactivationComment',
  'account',
  'userName',
  'ownerName',
] as const;
