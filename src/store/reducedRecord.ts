/**
 * A reduced record: what the mirror keeps of a record once its body went (retention for an
 * ended order or care arrangement, `forget` for a patient's records).
 */

/**
 * The fields a reduced record keeps: what the trace, dedupe and the daemon's own checks read
 * (ids and ERP keys, stamps, status for the transition table, the care arrangement's salesId an
 * order's enrichment adds, a patient's customerId it adds, `archived`). The rest of the body,
 * patient data included, goes.
 */
export const REDUCED_RECORD_FIELDS = [
  '_id',
  'timestamp',
  'updatedAt',
  'createdAt',
  'archived',
  'status',
  'seriesStatus',
  'orderType',
  'salesId',
  'erpOrderNumber',
  'patientId',
  'integratedCareId',
  'customerId',
  'customerNumber',
] as const;

/**
 * Whether a mirrored record is a reduced one: its body is gone, so it must never be handed to
 * the ERP or compared field by field as if whole.
 */
export function isReducedRecord(record: Readonly<Record<string, unknown>>): boolean {
  return record['_reduced'] !== undefined;
}

/** A reduced body: the fields of REDUCED_RECORD_FIELDS the record has, and when it was reduced. */
export function reducedRecord(json: string, at: string): string {
  const record = JSON.parse(json) as Record<string, unknown>;
  const kept = REDUCED_RECORD_FIELDS.filter((field) => record[field] !== undefined).map((field) => [
    field,
    record[field],
  ]);
  return JSON.stringify({ ...Object.fromEntries(kept), _reduced: at });
}
