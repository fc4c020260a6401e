/**
 * Readings of the contract where the spec leaves the meaning open, chosen by the operator in the
 * config (`ack.*`) and bound into the contract so the pullers, the acknowledgements and the
 * handlers read one answer.
 */

/**
 * How a care arrangement the ERP has is acknowledged. The spec names SeriesStatus "transmission
 * status of a care arrangement" with values -3 to 5 but no names: `seriesStatus` reads 0 as "not
 * yet transmitted" and PATCHes it to 1; `none` sends nothing and tracks delivery locally only.
 */
export const INTEGRATED_CARE_ACKS = ['seriesStatus', 'none'] as const;
export type IntegratedCareAck = (typeof INTEGRATED_CARE_ACKS)[number];

/**
 * Our reading of SeriesStatus under `seriesStatus`: 0 not yet transmitted, 1 transmitted. Why:
 * the spec names it the "transmission status of a care arrangement" but names no value; its
 * values -3, 0 … 5 are the numbers OrderStatus gives Pending, Created, Transmitted
 * ("transmitted to the ERP"), Transmission_failure, Processed, Sent and Delivered (the order
 * scale without cancelling, deleting, stopping or progress states), so we read it as that scale;
 * and the care arrangement lists' `status=created` / `transmitted` filters mirror the order
 * lists', where 1 is what our acknowledgement sets. Values above 1 claim more than that the ERP
 * has the arrangement (processed, sent, delivered), so only 0 (or none) is ever changed.
 */
export const SERIES_STATUS_NOT_TRANSMITTED = 0;
export const SERIES_STATUS_TRANSMITTED = 1;

export interface ContractReadings {
  integratedCareAck: IntegratedCareAck;
}

export const DEFAULT_READINGS: ContractReadings = { integratedCareAck: 'seriesStatus' };
