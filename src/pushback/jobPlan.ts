import { acknowledgedResource } from '../queue/types.js';
import { planAcknowledgement } from './acknowledge.js';
import type { Plan, PlanView } from './plan.js';
import { planOf } from './registry.js';

/** The plan of a platform write's job, as its kind (or the acknowledgement) plans it. */
export function planOfJob(kind: string, payload: Record<string, unknown>, view: PlanView): Plan {
  const acknowledged = acknowledgedResource(kind);
  if (acknowledged !== undefined) {
    return planAcknowledgement(acknowledged, String(payload['id']), view);
  }
  return planOf({ kind, body: payload }, view);
}
