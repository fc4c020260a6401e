import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { productGroupLevelProblem } from '../../contract/index.js';
import { entitySchema } from '../../contract/index.js';
import type { Handler, HandlerContext, Job } from '../../queue/types.js';
import { PermanentError } from '../../shared/errors.js';
import { getMirror, type Store } from '../../store/index.js';
import { createOrWriteOnce } from '../once/createOrWrite.js';
import type { PushBackKind } from '../descriptor.js';
import { first } from '../entityKeys.js';
import { notKnown, refusedWith } from '../once/failures.js';
import { onCreate, text } from '../inboxRules.js';
import { requiredText, textOf, without, type Body } from '../payload.js';
import { CSV_BY_FIELD_NAMES } from '../../erp/messages/index.js';

async function parentTypeOf(
  job: Job,
  context: HandlerContext,
  parentId: string,
  subject: string,
): Promise<unknown> {
  const mirrored = getMirror(context.store, 'productGroup', parentId);
  if (mirrored) return mirrored.record.type;
  try {
    return (await context.client.getProductGroup(parentId)).type;
  } catch (error) {
    if (!refusedWith(error, 404)) throw error;
    throw notKnown(
      job,
      `${subject}: its parent product group ${parentId} is not known`,
      'send the parent group first, or correct parentId',
      { resource: 'productGroup', id: parentId },
    );
  }
}

/** The hierarchy rule (type 1 under type 0, type 2 not under type 2), checked before sending. */
async function checkLevel(job: Job, context: HandlerContext, subject: string): Promise<void> {
  const parentId = textOf(job.payload, 'parentId');
  const parentType =
    parentId === undefined ? undefined : await parentTypeOf(job, context, parentId, subject);
  const problem = productGroupLevelProblem(
    Number(job.payload.type),
    typeof parentType === 'number' ? parentType : undefined,
  );
  if (problem === undefined) return;
  const hint = 'correct type or parentId in the ERP and send the group again';
  throw new PermanentError(`${subject}: on the wrong level, ${problem}; not sent. ${hint}`, {
    resource: 'productGroup',
    code: 'WRONG_LEVEL',
    hint,
  });
}

/**
 * "only the name may change" (spec document 2, PATCH /productGroup/{id}): a message for a known
 * group whose other fields differ from the platform's is refused, naming them, rather than
 * sending the name and dropping the rest unseen.
 */
function checkOnlyName(store: Store, message: Body, id: string, subject: string): void {
  const current = getMirror(store, 'productGroup', id)?.record;
  if (current === undefined) return;
  const changed = Object.keys(without(message, '_id', 'name')).filter(
    (field) => !isDeepStrictEqual(current[field], message[field]),
  );
  if (changed.length === 0) return;
  const hint =
    'the platform lets only the name of a product group change; create a new group for another type or parent, or send only the name';
  throw new PermanentError(`${subject}: ${changed.join(', ')} cannot change; not sent. ${hint}`, {
    resource: 'productGroup',
    id,
    code: 'CONTRACT_REFUSAL',
    hint,
  });
}

/**
 * A product group (variant B): POST with the level checked, or PATCH /productGroup/{_id}, which
 * can change only the name. A lost answer to the POST is not tried again: the list leaves our
 * own writes out (spec document 1, rule 2), and nothing else finds a group but by its `_id`.
 */
const pushProductGroup: Handler = async (job, context) => {
  const id = textOf(job.payload, '_id');
  const name = requiredText(job, 'name');
  const subject = id === undefined ? `product group "${name}"` : `product group ${id}`;
  // Where the variant has no product groups, the client's refusal says which variants do.
  if (id === undefined && context.contract.find('productGroup', 'create')) {
    await checkLevel(job, context, subject);
  }
  if (id !== undefined) checkOnlyName(context.store, job.payload, id, subject);
  const body = id === undefined ? without(job.payload, '_id') : { name };
  return createOrWriteOnce(
    job,
    context,
    { subject, resource: 'productGroup', id, body },
    {
      create: () => context.client.createProductGroup(body),
      write: (known) => context.client.patchProductGroup(known, body),
    },
  );
};

export const productGroup = {
  name: 'productGroup',
  inbox: {
    entity: entitySchema('productGroup'),
    minimum: z.looseObject({ name: text }),
    rules: onCreate('type'),
  },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: (body) => `productGroup:${first(body, '_id', 'name')}`,
  // Each message is a step (a create, a rename) of its own.
  supersedes: false,
  handler: pushProductGroup,
} as const satisfies PushBackKind;
