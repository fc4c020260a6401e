/**
 * Spec document 1, rule 2: changes made through the API with a key "are left out of the next
 * synchronisation result for that client". Two readings, both offered:
 * - `next`: a record a client changed is left out of the next list of that client that would
 *   return it, once; later pulls that cover the change return it again.
 * - `until-changed`: it stays left out of that client's lists until someone else changes it.
 */
export const LOOP_SUPPRESSIONS = ['next', 'until-changed'] as const;
export type LoopSuppression = (typeof LOOP_SUPPRESSIONS)[number];
export const DEFAULT_LOOP_SUPPRESSION: LoopSuppression = 'next';

export function isLoopSuppression(value: unknown): value is LoopSuppression {
  return (LOOP_SUPPRESSIONS as readonly unknown[]).includes(value);
}
