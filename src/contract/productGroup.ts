/** ProductGroupType and the hierarchy rule of product groups (variant B). */
export const PRODUCT_GROUP_TYPE = { OWG: 0, WG: 1, TWG: 2 } as const;

/**
 * Is `parentType` (undefined: no parent) a valid parent for a group of `type`? Returns the
 * broken rule, or undefined when the level is right.
 */
export function productGroupLevelProblem(
  type: number,
  parentType: number | undefined,
): string | undefined {
  const { OWG, WG, TWG } = PRODUCT_GROUP_TYPE;
  if (type === OWG)
    return parentType === undefined ? undefined : 'a type 0 (OWG) group has no parent';
  if (type === WG) {
    return parentType === OWG ? undefined : 'a type 1 (WG) group needs a parent of type 0 (OWG)';
  }
  if (type === TWG) {
    if (parentType === undefined) return 'a type 2 (TWG) group needs a parent of type 0 or 1';
    return parentType === TWG ? 'a type 2 (TWG) group may not have a parent of type 2' : undefined;
  }
  return `type must be 0 (OWG), 1 (WG) or 2 (TWG), got ${type}`;
}
