import { z } from 'zod';
import { entitySchema, isOrderStatus } from '../../contract/index.js';
import type { InboxKind } from '../adapter.js';
import { uniqueProblems, zodProblems, type Problem, problemText } from './problems.js';

/**
 * What the ERP may send per inbox kind: the platform's entity schema (types) plus the minimum
 * our push-back needs (`MINIMUM`) plus rules across fields (`RULES`). All three are checked and
 * every problem is reported, so the ERP sees everything wrong with a message at once.
 */
const text = z.string().min(1, 'must not be empty');
const looseList = (what: string) => z.array(z.looseObject({})).min(1, `needs at least one ${what}`);

const present = (value: unknown): boolean => typeof value === 'string' && value !== '';
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The ERP knows a patient by its own customer number; it is resolved to `patientId` later. */
function patientReference(body: Record<string, unknown>): Problem[] {
  return present(body.patientId) || present(body.patientCustomerId)
    ? []
    : [{ path: 'patientId', message: 'patientId or patientCustomerId is required' }];
}

/** Without `_id` the message creates an entity, which then needs `fields`. */
const onCreate =
  (...fields: string[]) =>
  (body: Record<string, unknown>): Problem[] =>
    present(body._id)
      ? []
      : fields
          .filter((field) => body[field] === undefined || body[field] === null)
          .map((field) => ({ path: field, message: `required when no _id is given (a create)` }));

const orderStatus = z.strictObject({
  orderType: z.enum(['single', 'direct']),
  id: text.optional(),
  salesId: text.optional(),
  status: z.number().refine(isOrderStatus, 'must be an order status from -3 to 10').optional(),
  erpOrderNumber: text.optional(),
  trackingInfo: z
    .array(
      z.strictObject({ trackingLink: z.string().optional(), trackingCode: z.string().optional() }),
    )
    .optional(),
});

/** `id` finds the order when given (then `salesId` is a change); else `salesId` finds it. */
function orderStatusRules(body: Record<string, unknown>): Problem[] {
  if (!present(body.id) && !present(body.salesId)) {
    return [{ path: 'id', message: 'id or salesId is required to find the order' }];
  }
  const changes = [body.status, body.erpOrderNumber, body.trackingInfo];
  if (present(body.id)) changes.push(body.salesId);
  return changes.some((value) => value !== undefined)
    ? []
    : [
        {
          path: '',
          message:
            'nothing to change: give status, erpOrderNumber, trackingInfo or, with id, salesId',
        },
      ];
}

type EntityKind = Exclude<InboxKind, 'orderStatus'>;

const MINIMUM: Record<EntityKind, z.ZodType> = {
  erpOrder: z.looseObject({
    salesId: text,
    outboundDate: text,
    deliveryAddress: z.looseObject({}),
    erpOrderedArticleLines: looseList('line'),
  }),
  article: z.looseObject({
    customerNumber: text,
    name: text,
    packagingUnits: z
      .array(z.looseObject({ quantity: z.number(), unit: z.union([text, z.number()]) }))
      .min(1, 'needs at least one packaging unit'),
  }),
  patient: z.looseObject({ customerId: text }),
  patientNote: z.looseObject({ noteText: text }),
  device: z.looseObject({ serialNumber: text, description: text }),
  integratedCare: z.looseObject({}),
  attachment: z.looseObject({
    data: z.base64('must be base64'),
    filename: text,
    mime: text,
    metadata: z.looseObject({ type: z.number(), patientId: text.optional() }),
  }),
  productGroup: z.looseObject({ name: text }),
  contractArticleGroup: z.looseObject({}),
  insuranceContract: z.looseObject({}),
};

const RULES: Partial<Record<InboxKind, (body: Record<string, unknown>) => Problem[]>> = {
  orderStatus: orderStatusRules,
  erpOrder: patientReference,
  patientNote: patientReference,
  device: patientReference,
  integratedCare: (body) => [
    ...onCreate('therapyId', 'isInitialCare')(body),
    ...(present(body._id) ? [] : patientReference(body)),
  ],
  attachment: (body) => {
    const metadata = isObject(body.metadata) ? body.metadata : {};
    return present(metadata.patientId) || present(body.patientCustomerId)
      ? []
      : [
          {
            path: 'metadata.patientId',
            message: 'metadata.patientId or patientCustomerId is required',
          },
        ];
  },
  productGroup: onCreate('type'),
  contractArticleGroup: onCreate('name'),
  insuranceContract: onCreate('name'),
};

function schemaProblems(schema: z.ZodType, body: unknown): Problem[] {
  const result = schema.safeParse(body);
  return result.success ? [] : zodProblems(result.error);
}

/** Every problem of `json` as a message of `kind`, by field path. */
export function inboxProblems(kind: InboxKind, json: unknown): Problem[] {
  if (!isObject(json)) return [{ path: '', message: 'the message must be a JSON object' }];
  const schemas = kind === 'orderStatus' ? [orderStatus] : [entitySchema(kind), MINIMUM[kind]];
  const problems = schemas.flatMap((schema) => schemaProblems(schema, json));
  return uniqueProblems([...problems, ...(RULES[kind]?.(json) ?? [])]);
}

export type InboxParse =
  { ok: true; body: Record<string, unknown> } | { ok: false; problems: string[] };

/** Validates one message from the ERP (inbox file or `POST /erp/<kind>`). */
export function parseInboxBody(kind: InboxKind, json: unknown): InboxParse {
  const problems = inboxProblems(kind, json);
  if (problems.length > 0) return { ok: false, problems: problems.map(problemText) };
  return { ok: true, body: json as Record<string, unknown> };
}
