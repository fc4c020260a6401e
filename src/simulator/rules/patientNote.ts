import { withPatientRegion } from './references.js';
import type { WriteRules } from './types.js';

/** Patient notes: `regionId` from the patient; a PATCHed note counts as edited. */
export const patientNoteRules: WriteRules = {
  create: (ctx, body) => withPatientRegion(ctx, { edited: false, ...body }),
  change: (ctx, body, stored) => withPatientRegion(ctx, { ...stored, ...body, edited: true }),
};
