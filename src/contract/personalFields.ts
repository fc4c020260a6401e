/**
 * Personal fields whose values many people share: a first name, a postal code or a city alone,
 * a delivery note ("Bitte klingeln"), a wound's location. `forget` finds a patient's records by
 * reference, never texts by these values, which would erase other patients' work.
 */
export const SHARED_PERSONAL_FIELDS = [
  'firstName',
  'name',
  'postalCode',
  'city',
  // Free texts about the patient and the delivery ("Klingel Meier/Schmitz, 3. OG links").
  'deliveryInformation',
  'deliveryNote',
  'additionalInfo',
  'dashboardInfo',
  // Health data of a patient's history.
  'therapy',
  'woundLocation',
] as const;

/**
 * Fields that carry personal data of patients, care givers, doctors and users, health data and
 * free texts about them included. Every output masks them (src/log/personal.ts); `forget`
 * looks for the values of those not shared by many (src/housekeeping/erasure/patient.ts). Listed by
 * field name wherever they occur in a record.
 */
export const PERSONAL_FIELDS = [
  'lastName',
  'birthday',
  'address',
  'additionalAddress',
  'additionalAddress2',
  'street',
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
  ...SHARED_PERSONAL_FIELDS,
] as const;
