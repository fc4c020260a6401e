import { z } from 'zod';
import { entitySchema } from '../../contract/index.js';
import { pushContract } from '../contracts.js';
import type { PushBackKind } from '../descriptor.js';
import { first } from '../entityKeys.js';
import { onCreate } from '../inboxRules.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

export const insuranceContract = {
  name: 'insuranceContract',
  inbox: {
    entity: entitySchema('insuranceContract'),
    minimum: z.looseObject({}),
    rules: onCreate('name'),
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: (body) => `insuranceContract:${first(body, '_id', 'name')}`,
  supersedes: true,
  handler: pushContract('insuranceContract'),
} as const satisfies PushBackKind;
