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

/** Our reading of SeriesStatus under `seriesStatus`: 0 not yet transmitted, 1 transmitted. */
export const SERIES_STATUS_NOT_TRANSMITTED = 0;
export const SERIES_STATUS_TRANSMITTED = 1;

export interface ContractReadings {
  integratedCareAck: IntegratedCareAck;
}

export const DEFAULT_READINGS: ContractReadings = { integratedCareAck: 'seriesStatus' };
