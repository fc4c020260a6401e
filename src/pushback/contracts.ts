import { z } from 'zod';
import { entitySchema } from '../contract/index.js';
import { CSV_BY_FIELD_NAMES } from '../erp/messages/index.js';
import type { PlatformRecord } from '../platform/index.js';
import type { Handler } from '../queue/types.js';
import type { PushBackKind } from './descriptor.js';
import { first } from './entityKeys.js';
import { onCreate } from './inboxRules.js';
import { createOnce } from './once/create.js';
import { about } from './once/failures.js';
import { textOf, without } from './payload.js';
import { remember } from './once/remember.js';
import { writeOnce } from './once/write.js';

type ContractResource = 'contractArticleGroup' | 'insuranceContract';

const LABELS: Record<ContractResource, string> = {
  contractArticleGroup: 'contract article group',
  insuranceContract: 'insurance contract',
};

/**
 * Contract article groups and insurance contracts (variant A): PUT /{_id} when given, else POST.
 * A lost answer to the POST is not tried again: their lists leave our own writes out (spec
 * document 1, rule 2) and the contract names no key they could be found by.
 */
export function pushContract(resource: ContractResource): Handler {
  return async (job, context) => {
    const id = textOf(job.payload, '_id');
    const name = textOf(job.payload, 'name');
    const subject = `${LABELS[resource]} ${id ?? `"${name ?? '(no name)'}"`}`;
    const body = without(job.payload, '_id');
    const { client } = context;
    const send = (): Promise<PlatformRecord> => {
      if (resource === 'contractArticleGroup') {
        return id === undefined
          ? createOnce(job, context, { subject, resource, body }, () =>
              client.createContractArticleGroup(body),
            )
          : writeOnce(job, context, { resource, id, body }, () =>
              client.replaceContractArticleGroup(id, body),
            );
      }
      return id === undefined
        ? createOnce(job, context, { subject, resource, body }, () =>
            client.createInsuranceContract(body),
          )
        : writeOnce(job, context, { resource, id, body }, () =>
            client.replaceInsuranceContract(id, body),
          );
    };
    return remember(context, resource, await about(subject, send), { body });
  };
}

/**
 * The push-back kind of a contract resource: both are one kind of message (a record by its
 * `_id`, else a new one by its name), each newer message of the record superseding the older.
 */
export function contractKind<Resource extends ContractResource>(resource: Resource) {
  return {
    name: resource,
    inbox: {
      entity: entitySchema(resource),
      minimum: z.looseObject({}),
      rules: onCreate('name'),
    },
    inboxMapping: CSV_BY_FIELD_NAMES,
    businessKey: (body) => `${resource}:${first(body, '_id', 'name')}`,
    supersedes: true,
    handler: pushContract(resource),
  } as const satisfies PushBackKind;
}
