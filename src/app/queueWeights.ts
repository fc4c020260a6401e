import type { QueueWeights } from '../config/queueSchema.js';
import type { WeightOf } from '../queue/fairShare.js';

/**
 * A job kind's weight (`queue.weights`), by the resource it is about: `deliver.<resource>` and
 * `ack.<resource>` by theirs, an ERP message kind by its name, order status messages as orders;
 * any other by `default`.
 */
export function weightOf(weights: QueueWeights): WeightOf {
  const byResource: Readonly<Record<string, number | undefined>> = weights;
  return (kind) => {
    const resource = kind.slice(kind.indexOf('.') + 1);
    return byResource[resource === 'orderStatus' ? 'singleOrder' : resource] ?? weights.default;
  };
}
