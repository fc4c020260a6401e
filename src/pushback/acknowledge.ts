import {
  ORDER_STATUS,
  SERIES_STATUS_NOT_TRANSMITTED,
  SERIES_STATUS_TRANSMITTED,
} from '../contract/index.js';
import { PermanentError } from '../shared/errors.js';
import { getMirror, type MirrorEntry } from '../store/index.js';
import type { Handler, HandlerContext } from '../queue/types.js';
import { nothingSent } from './once/answers.js';
import { about } from './once/failures.js';
import { checkTransition, orderLabel, patchOrder, type OrderResource } from './orders.js';
import { requiredText } from './payload.js';
import { remember } from './once/remember.js';
import { writeOnce } from './once/write.js';

/**
 * The mirror's entry, read once: its status decides whether to send, and it is the record as
 * known before the write, which the fingerprint of the write compares against (remember).
 */
function mirrored(context: HandlerContext, resource: string, id: string): MirrorEntry {
  const entry = getMirror(context.store, resource, id);
  if (entry) return entry;
  const hint = `reset the ${resource} checkpoint so it is pulled again, then retry this job`;
  throw new PermanentError(
    `${resource} ${id} is not in the local mirror, so it cannot be acknowledged safely; ${hint}`,
    { resource, id, code: 'NOT_MIRRORED', hint },
  );
}

/** Created → Transmitted once the ERP has the order; an order that left Created is done. */
export function acknowledgeOrder(resource: OrderResource): Handler {
  return async (job, context) => {
    const id = requiredText(job, 'id');
    const before = mirrored(context, resource, id);
    const { status } = before.record;
    if (typeof status === 'number' && status !== ORDER_STATUS.Created) {
      context.logger.debug({ resource, id, status }, 'already acknowledged; nothing sent');
      nothingSent(context, 'already on the platform');
      return;
    }
    checkTransition(resource, id, status, ORDER_STATUS.Transmitted);
    const body = { status: ORDER_STATUS.Transmitted };
    const answer = await about(`acknowledging ${orderLabel(resource)} ${id}`, () =>
      writeOnce(job, context, { resource, id, body }, () =>
        patchOrder(context.client, resource, id, body),
      ),
    );
    return remember(context, resource, answer, { body, before });
  };
}

/** seriesStatus 0 → 1 on a care arrangement the ERP has; any other seriesStatus is left alone. */
export const acknowledgeIntegratedCare: Handler = async (job, context) => {
  const id = requiredText(job, 'id');
  // A job queued before the operator chose `ack.integratedCare: none` is done without a PATCH.
  if (context.contract.readings.integratedCareAck === 'none') {
    context.logger.info(
      { resource: 'integratedCare', id },
      'care arrangements are not acknowledged (ack.integratedCare: none); nothing sent',
    );
    nothingSent(context, 'acknowledgement turned off');
    return;
  }
  if (!context.contract.find('integratedCare', 'update')) {
    const offering = context.contract.variantsOffering('integratedCare', 'update').join(' and ');
    throw new PermanentError(
      `integrated care ${id} cannot be acknowledged: care arrangements are read-only in platform variant ${context.contract.variant} (only ${offering} offer PATCH /integratedCare); drop this job`,
      { resource: 'integratedCare', id, code: 'CONTRACT_REFUSAL' },
    );
  }
  const before = mirrored(context, 'integratedCare', id);
  const { seriesStatus } = before.record;
  const unset = seriesStatus === undefined || seriesStatus === null;
  if (!unset && seriesStatus !== SERIES_STATUS_NOT_TRANSMITTED) {
    context.logger.debug(
      { resource: 'integratedCare', id, seriesStatus },
      'nothing to acknowledge',
    );
    nothingSent(context, 'already on the platform');
    return;
  }
  const body = { seriesStatus: SERIES_STATUS_TRANSMITTED };
  const answer = await about(`acknowledging integrated care ${id}`, () =>
    writeOnce(job, context, { resource: 'integratedCare', id, body }, () =>
      context.client.patchIntegratedCare(id, body),
    ),
  );
  return remember(context, 'integratedCare', answer, { body, before });
};
