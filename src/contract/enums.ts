/** Enumerations of spec document 2 whose values are given. Names are given only for some. */
export const GENDER = [0, 1, 2, 3] as const;
export const TITLE = Array.from({ length: 21 }, (_, i) => i);
export const PATIENT_DEACTIVATION_REASON = [0, 1, 2, 3, 4] as const;
export const ERP_STATUS = ['Liefersperre', 'Komplettsperre'] as const;
export const CARE_DEGREE = [1, 2, 3, 4, 5] as const;

export const PRESCRIPTION_TYPE = {
  Drug: 0,
  Dressings: 1,
  NarcoticsRecipe: 2,
  NursingAids: 3,
  AdisForConsumption: 4,
  AidsForUse: 5,
  TubeFeeding: 7,
} as const;
/** A client may send 6; the platform stores it as 0 (Drug) without complaint. */
export const PRESCRIPTION_TYPE_STORED_AS_DRUG = 6;

export const INVENTORY_TYPE = { Unknown: 0, Store: 1, Order: 2 } as const;
export const NOTE_TYPE = [1, 2, 3] as const;
export const ORDER_TYPE = { FirstOrder: 0, FollowUpOrder: 1, StaffOrder: 2 } as const;
export const CARE_PROPOSAL_STATUS = { Active: 1, Inactive: 2 } as const;
export const SERIES_STATUS = [-3, 0, 1, 2, 3, 4, 5] as const;

export const TRANSMISSION_STATUS = [
  'transmissionPending',
  'transmissionInitiated',
  'transmissionFailed',
  'faxWaiting',
  'faxProcessing',
  'faxSending',
  'faxFailed',
  'emailFailed',
  'requested',
  'toClarify',
  'canceled',
  'faulty',
  'copyReceived',
  'originalReceived',
] as const;
