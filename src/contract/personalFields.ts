/**
 * Fields that carry personal data of patients, care givers, doctors and users, health data and
 * free texts about them included. Every output masks them (src/log/personal.ts); `forget`
 * looks for their distinctive values (src/store/erasurePatient.ts). Listed by field name
 * wherever they occur in a record.
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
  // Free texts about the patient and the delivery ("Klingel Meier/Schmitz, 3. OG links").
  'deliveryInformation',
  'deliveryNote',
  'additionalInfo',
  'dashboardInfo',
  // Health data of a patient's history.
  'therapy',
  'woundLocation',
] as const;
