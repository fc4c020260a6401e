import { releaseDelivery } from '../../store/index.js';
import { PermanentError } from '../../shared/errors.js';
import type { Handler } from '../types.js';

/** A replayed delivery dead letter: the version goes to the ERP again at the next round. */
export const redeliver: Handler = (job, { store }) => {
  const { resource, id, version } = job.payload;
  if (typeof resource !== 'string' || typeof id !== 'string' || typeof version !== 'string') {
    return Promise.reject(
      new PermanentError(`job ${job.id} names no record version to deliver again`),
    );
  }
  // False when it was delivered meanwhile: nothing left to do, which is success too.
  releaseDelivery(store, { resource, id, version });
  return Promise.resolve();
};
