import { productGroupLevelProblem } from '../../contract/index.js';
import { requireReferenced } from '../api/lookup.js';
import { badRequest } from '../httpError.js';
import type { WriteRules } from './types.js';

export const productGroupRules: WriteRules = {
  create(ctx, body) {
    const hasParent = body.parentId !== undefined && body.parentId !== null && body.parentId !== '';
    const parent = hasParent
      ? requireReferenced(ctx, 'productGroup', 'parentId', body.parentId)
      : undefined;
    const parentType = typeof parent?.type === 'number' ? parent.type : undefined;
    const problem = productGroupLevelProblem(Number(body.type), parent ? parentType : undefined);
    if (problem) throw badRequest('product group on the wrong level', [`parentId: ${problem}`]);
    return body;
  },
  /** Only the name of a product group may change (spec document 2). */
  change: (_ctx, body, stored) => ({ ...stored, name: body.name }),
};
