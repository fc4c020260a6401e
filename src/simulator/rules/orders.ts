import { canTransition } from '../../contract/index.js';
import { badRequest } from '../httpError.js';
import type { WriteRules } from './types.js';

/** PATCH of a single or direct order: fields merge; a status change follows the transition table. */
export const orderRules: WriteRules = {
  change(_ctx, body, stored) {
    if (body.status !== undefined) {
      const from = typeof stored.status === 'number' ? stored.status : NaN;
      const to = typeof body.status === 'number' ? body.status : NaN;
      const verdict = canTransition(from, to);
      if (!verdict.allowed) {
        throw badRequest(`order ${String(stored._id)}: status change refused`, [
          `status: ${verdict.reason}`,
        ]);
      }
    }
    return { ...stored, ...body };
  },
};
