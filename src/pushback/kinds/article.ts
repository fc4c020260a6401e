import { z } from 'zod';
import type { Contract } from '../../contract/index.js';
import { entitySchema } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import type { Handler, HandlerContext } from '../../queue/types.js';
import { PermanentError } from '../../shared/errors.js';
import { findMirrorBy } from '../../store/index.js';
import type { PushBackKind } from '../descriptor.js';
import { answeredWith } from '../once/answers.js';
import { existingIdOf } from '../once/create.js';
import { upsertOnce, type Upserted } from '../once/createOrWrite.js';
import { first } from '../entityKeys.js';
import { about, refusedWith } from '../once/failures.js';
import { text } from '../inboxRules.js';
import { requiredText, textOf, without, type Body } from '../payload.js';
import { ARTICLE_CSV } from '../../erp/messages/index.js';

function checkPackagingUnits(body: Body, subject: string): void {
  const units = body.packagingUnits;
  if (Array.isArray(units) && units.length > 0) return;
  throw new PermanentError(
    `${subject}: needs at least one packaging unit (packagingUnits); not sent. Add the article's packaging units in the ERP and send it again`,
    { resource: 'article', code: 'BAD_JOB' },
  );
}

/** Where a variant's create asks for `articleNumber` (A), it is the ERP's article number. */
function articleBody(message: Body, contract: Contract): PlatformRecord {
  const body = without(message, '_id');
  const required = contract.find('article', 'create')?.detail.body?.required ?? [];
  if (required.includes('articleNumber') && textOf(body, 'articleNumber') === undefined) {
    return { ...body, articleNumber: body.customerNumber };
  }
  return body;
}

/** The `{id}` of PUT /article/{id}: the customerNumber where the variant says so, else `_id`. */
function replaceId(contract: Contract, existingId: string, body: PlatformRecord): string {
  const idKind = contract.find('article', 'replace')?.detail.idKind;
  return idKind === 'customerNumber' ? String(body.customerNumber) : existingId;
}

function replace(context: HandlerContext, existingId: string, body: PlatformRecord) {
  return context.client.replaceArticle(replaceId(context.contract, existingId, body), body);
}

/** The articles with `customerNumber`: GET /article/{id} takes the customerNumber as its id. */
async function articlesWith(customerNumber: string, context: HandlerContext): Promise<string[]> {
  try {
    const found = await context.client.getArticle(customerNumber);
    const id = found._id;
    return found.customerNumber === customerNumber && typeof id === 'string' ? [id] : [];
  } catch (error) {
    if (refusedWith(error, 404)) return [];
    throw error;
  }
}

async function createOrReplace(
  context: HandlerContext,
  body: PlatformRecord,
  subject: string,
): Promise<Upserted> {
  try {
    return {
      answer: answeredWith(context, await context.client.createArticle(body)),
      updates: false,
    };
  } catch (error) {
    const customerNumber = String(body.customerNumber);
    const lookup = () => articlesWith(customerNumber, context);
    const existingId = await existingIdOf(error, subject, lookup, context);
    if (existingId === undefined) throw error;
    context.logger.info(
      { resource: 'article', id: existingId },
      'customerNumber exists; sent as PUT',
    );
    const answer = answeredWith(context, await replace(context, existingId, body), true);
    return { answer, updates: true };
  }
}

/** An article the ERP owns: PUT when its customerNumber is known, else POST (a duplicate → PUT). */
const pushArticle: Handler = async (job, context) => {
  const customerNumber = requiredText(job, 'customerNumber');
  const subject = `article customerNumber ${customerNumber}`;
  checkPackagingUnits(job.payload, subject);
  const body = articleBody(job.payload, context.contract);
  const known = findMirrorBy(context.store, 'article', 'customerNumber', customerNumber)[0];
  return about(subject, () =>
    upsertOnce(
      job,
      context,
      { subject, resource: 'article', id: known?.id, body },
      {
        create: () => createOrReplace(context, body, subject),
        write: (id) => replace(context, id, body),
      },
    ),
  );
};

export const article = {
  name: 'article',
  inbox: {
    entity: entitySchema('article'),
    minimum: z.looseObject({
      customerNumber: text,
      name: text,
      packagingUnits: z
        .array(z.looseObject({ quantity: z.number(), unit: z.union([text, z.number()]) }))
        .min(1, 'needs at least one packaging unit'),
    }),
    // The article number variant A's create asks for; else taken from `customerNumber`.
    erpFields: { articleNumber: z.string() },
  },
  // Its CSV as before the mapping language: columns named by field, packagingUnit1.quantity, ….
  inboxMapping: ARTICLE_CSV,
  businessKey: (body) => `article:${first(body, 'customerNumber')}`,
  supersedes: true,
  handler: pushArticle,
} as const satisfies PushBackKind;
