import { z } from 'zod';
import { entitySchema } from '../../contract/index.js';
import { pushContract } from '../contracts.js';
import type { PushBackKind } from '../descriptor.js';
import { first } from '../entityKeys.js';
import { onCreate } from '../inboxRules.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

export const contractArticleGroup = {
  name: 'contractArticleGroup',
  inbox: {
    entity: entitySchema('contractArticleGroup'),
    minimum: z.looseObject({}),
    rules: onCreate('name'),
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: (body) => `contractArticleGroup:${first(body, '_id', 'name')}`,
  supersedes: true,
  handler: pushContract('contractArticleGroup'),
} as const satisfies PushBackKind;
