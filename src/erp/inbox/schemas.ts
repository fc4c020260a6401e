import { z } from 'zod';
import { entitySchema, isOrderStatus } from '../../contract/index.js';
import type { InboxKind } from '../adapter.js';
import { uniqueProblems, zodProblems, type Problem } from './problems.js';
import { merged, shapeOf, type Shape } from './shape.js';

/**
 * What the ERP may send per inbox kind: the platform's entity schema (types) plus the minimum
 * our push-back needs (`MINIMUM`) plus rules across fields (`RULES`). The fields they define,
 * with the ERP's own references (`ERP_FIELDS`), are all a message may carry (`knownShape`).
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

/**
 * Fields of the ERP's own that our handlers read and resolve before anything reaches the
 * platform: a patient named by the ERP's customer number (resolved into `patientId`), and the
 * article number variant A's create asks for (else taken from `customerNumber`).
 */
const ERP_FIELDS: Partial<Record<EntityKind, z.ZodRawShape>> = {
  erpOrder: { patientCustomerId: z.string() },
  patientNote: { patientCustomerId: z.string() },
  device: { patientCustomerId: z.string() },
  integratedCare: { patientCustomerId: z.string() },
  attachment: { patientCustomerId: z.string() },
  article: { articleNumber: z.string() },
};

function shapeOfKind(kind: InboxKind): Shape {
  if (kind === 'orderStatus') return shapeOf(orderStatus);
  const contract = merged(shapeOf(entitySchema(kind)), shapeOf(MINIMUM[kind]));
  return merged(contract, shapeOf(z.object(ERP_FIELDS[kind] ?? {})));
}

const SHAPES = new Map<InboxKind, Shape>();

/** Every field a message of `kind` may carry, at any depth, and the JSON type of each. */
export function knownShape(kind: InboxKind): Shape {
  const known = SHAPES.get(kind) ?? shapeOfKind(kind);
  SHAPES.set(kind, known);
  return known;
}

function problemsOf(schema: z.ZodType, body: unknown): Problem[] {
  const result = schema.safeParse(body);
  return result.success ? [] : zodProblems(result.error);
}

/** What the rules across fields of `kind` find in `body`: cheap, they read a few fields. */
export function ruleProblems(kind: InboxKind, body: Record<string, unknown>): Problem[] {
  return RULES[kind]?.(body) ?? [];
}

/** Every problem the schemas and rules of `kind` find in the object `body`, by field path. */
export function schemaProblems(kind: InboxKind, body: Record<string, unknown>): Problem[] {
  const schemas = kind === 'orderStatus' ? [orderStatus] : [entitySchema(kind), MINIMUM[kind]];
  const problems = schemas.flatMap((schema) => problemsOf(schema, body));
  return uniqueProblems([...problems, ...ruleProblems(kind, body)]);
}
