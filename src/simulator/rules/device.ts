import { withPatientRegion } from './references.js';
import type { WriteRules } from './types.js';

/** Devices: `regionId` from the patient; PUT replaces the device. */
export const deviceRules: WriteRules = {
  create: (ctx, body) => withPatientRegion(ctx, body),
  change: (ctx, body) => withPatientRegion(ctx, body),
};
