import { z } from 'zod';
import { RESOURCE_NAMES } from '../contract/index.js';
import { integer, numberFromText } from './fields.js';

/**
 * How much of a queue pass each resource's jobs may take while several have ready jobs
 * (`queue.weights`): orders and what they refer to first, everything else by `default`. A
 * resource's weight counts for its hand-overs to the ERP, its acknowledgements and the ERP's
 * messages about it.
 */
export const DEFAULT_QUEUE_WEIGHTS = {
  singleOrder: 8,
  directOrder: 8,
  erpOrder: 8,
  integratedCare: 4,
  patient: 4,
  article: 4,
  default: 1,
} as const;

const weight = z.preprocess(numberFromText, z.number().int().min(1).max(1_000));

/** `queue`: the worker's lanes, its look for jobs, and the weights a pass is shared by. */
export const queueSchema = z
  .strictObject({
    concurrency: integer(1, 4),
    pollIntervalMs: integer(50, 1_000),
    weights: z
      .partialRecord(z.enum([...RESOURCE_NAMES, 'default']), weight)
      .default({})
      .transform((given) => ({ ...DEFAULT_QUEUE_WEIGHTS, ...given })),
  })
  .prefault({});

export type QueueWeights = z.output<typeof queueSchema>['weights'];
