import type { BodyRule } from './body.js';
import type { ResourceName } from './resources.js';
import type { Variant } from './variants.js';
import {
  bool,
  datetime,
  NO_QUERY,
  OPEN_QUERY,
  oneOfValues,
  text,
  uuid,
  type QueryRule,
} from './query.js';
import { ERP_ORDER_CREATE, ERP_ORDER_REPLACE, ERP_ORDER_SCHEMA_FIELDS_B } from './erpOrderRules.js';
import { STATUS_FILTERS } from './statusFilters.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What one operation does, in the platform's terms. */
export type OperationKind = 'list' | 'get' | 'create' | 'replace' | 'update' | 'download';

/** What the `{id}` of a single-item path is. */
export type IdKind = '_id' | 'customerNumber' | 'salesId' | '_idOrCustomerNumber' | 'attachmentId';

/** One operation in one variant. */
export interface OperationDetail {
  query: QueryRule;
  idKind?: IdKind;
  body?: BodyRule;
  /** PUT /device also takes its id as the query parameter `id`. */
  idQueryParam?: string;
  /** What the response is, where it is not the entity. */
  response?: 'entity' | 'list' | 'idAndUpdated' | 'deviceAck' | 'pdfOrXml' | 'file';
}

export interface Operation {
  resource: ResourceName;
  kind: OperationKind;
  method: HttpMethod;
  /** `item` paths end in `/{id}`. */
  target: 'collection' | 'item' | 'customerMapping';
  variants: Partial<Record<Variant, OperationDetail>>;
}

const ALL = ['A', 'B', 'C'] as const;

function same(
  variants: readonly Variant[],
  detail: OperationDetail,
): Partial<Record<Variant, OperationDetail>> {
  return Object.fromEntries(variants.map((v) => [v, detail]));
}

function op(
  resource: ResourceName,
  kind: OperationKind,
  variants: Partial<Record<Variant, OperationDetail>>,
): Operation {
  const method: Record<OperationKind, HttpMethod> = {
    list: 'GET',
    get: 'GET',
    download: 'GET',
    create: 'POST',
    replace: 'PUT',
    update: 'PATCH',
  };
  const target = kind === 'list' || kind === 'create' ? 'collection' : 'item';
  return { resource, kind, method: method[kind], target, variants };
}

const updatedAfterRequired: QueryRule = {
  params: { updatedAfter: datetime },
  required: ['updatedAfter'],
  extra: 'ignore',
};
/**
 * Lists whose query parameters the spec does not show: we send `updatedAfter` anyway, and pull
 * the whole list where the platform refuses it (see src/pull/puller.ts).
 */
const updatedAfterOptional: QueryRule = {
  params: { updatedAfter: datetime },
  guessed: ['updatedAfter'],
  extra: 'ignore',
};

function statusAndUpdatedAfter(
  resource: keyof typeof STATUS_FILTERS,
  extra: QueryRule['extra'],
): QueryRule {
  return {
    params: { status: oneOfValues(...STATUS_FILTERS[resource]), updatedAfter: datetime },
    required: ['status', 'updatedAfter'],
    extra,
  };
}

/** How many of a list's alternative parameters the spec demands. */
type Demand = 'none' | 'atLeastOne' | 'exactlyOne';

function idOrUpdatedAfter(names: readonly string[], demand: Demand): QueryRule {
  const params = Object.fromEntries(
    names.map((n) => [n, n === '_id' ? uuid : n === 'updatedAfter' ? datetime : text]),
  );
  if (demand === 'none') return { params, extra: 'ignore' };
  return { params, oneOf: { names, exactlyOne: demand === 'exactlyOne' }, extra: 'ignore' };
}

/**
 * "query `_id` (UUID) or `updatedAfter` (date-time). Variant B demands exactly one of the two
 * and forbids both together; variant C demands at least one": variant A demands neither.
 */
const masterDataList = {
  A: { query: idOrUpdatedAfter(['_id', 'updatedAfter'], 'none') },
  B: { query: idOrUpdatedAfter(['_id', 'updatedAfter'], 'exactlyOne') },
  C: { query: idOrUpdatedAfter(['_id', 'updatedAfter'], 'atLeastOne') },
};

function masterData(resource: ResourceName): Operation[] {
  return [
    op(resource, 'list', masterDataList),
    op(resource, 'get', same(ALL, { query: OPEN_QUERY, idKind: '_id' })),
  ];
}

const created = { query: NO_QUERY, body: { forbidden: ['_id'] } } as const;

/**
 * The contract's operations, from spec document 2 ("Methods per variant" and the endpoint
 * sections). An operation absent from a variant does not exist there.
 */
export const OPERATIONS: readonly Operation[] = [
  // Patient
  op('patient', 'list', same(ALL, { query: updatedAfterOptional })),
  op('patient', 'get', same(ALL, { query: OPEN_QUERY, idKind: '_id' })),
  op('patient', 'create', same(ALL, { query: OPEN_QUERY })),
  op('patient', 'replace', same(['A', 'C'], { query: OPEN_QUERY, idKind: '_id' })),
  op('patient', 'update', same(['B'], { query: OPEN_QUERY, idKind: '_id' })),
  {
    resource: 'patientCustomerMapping',
    kind: 'get',
    method: 'GET',
    target: 'customerMapping',
    variants: {
      C: { query: { params: { customerId: text }, required: ['customerId'], extra: 'ignore' } },
    },
  },
  // Patient notes and history
  op(
    'patientNote',
    'list',
    same(ALL, { query: idOrUpdatedAfter(['updatedAfter', 'patientId'], 'atLeastOne') }),
  ),
  op('patientNote', 'create', same(ALL, { query: OPEN_QUERY })),
  op('patientNote', 'update', same(ALL, { query: OPEN_QUERY, idKind: '_id' })),
  op('patientHistory', 'list', same(['A', 'B'], { query: updatedAfterRequired })),
  // Orders
  op('singleOrder', 'list', same(ALL, { query: statusAndUpdatedAfter('singleOrder', 'ignore') })),
  op('singleOrder', 'update', same(ALL, { query: NO_QUERY, idKind: '_id' })),
  op('directOrder', 'list', same(ALL, { query: statusAndUpdatedAfter('directOrder', 'refuse') })),
  op('directOrder', 'update', same(ALL, { query: NO_QUERY, idKind: '_id' })),
  // Integrated care
  op(
    'integratedCare',
    'list',
    same(ALL, { query: statusAndUpdatedAfter('integratedCare', 'refuse') }),
  ),
  op(
    'integratedCare',
    'create',
    same(['A', 'B'], {
      query: OPEN_QUERY,
      body: { required: ['patientId', 'therapyId', 'isInitialCare'] },
      response: 'idAndUpdated',
    }),
  ),
  op('integratedCare', 'update', same(['A', 'B'], { query: OPEN_QUERY, idKind: '_id' })),
  // ERP orders
  op('erpOrder', 'list', same(['B', 'C'], { query: updatedAfterOptional })),
  op('erpOrder', 'get', same(['B', 'C'], { query: OPEN_QUERY, idKind: 'salesId' })),
  op('erpOrder', 'create', {
    A: { query: OPEN_QUERY, body: ERP_ORDER_CREATE },
    B: { query: OPEN_QUERY, body: { ...ERP_ORDER_CREATE, present: ERP_ORDER_SCHEMA_FIELDS_B } },
    C: { query: OPEN_QUERY, body: ERP_ORDER_CREATE },
  }),
  op('erpOrder', 'replace', {
    A: { query: OPEN_QUERY, idKind: 'salesId', body: ERP_ORDER_REPLACE },
    B: {
      query: OPEN_QUERY,
      idKind: 'salesId',
      body: { ...ERP_ORDER_REPLACE, present: ERP_ORDER_SCHEMA_FIELDS_B },
    },
    C: { query: OPEN_QUERY, idKind: 'salesId', body: ERP_ORDER_REPLACE },
  }),
  // Article
  op('article', 'list', {
    A: { query: updatedAfterRequired },
    B: { query: statusAndUpdatedAfter('article', 'ignore') },
    C: { query: updatedAfterRequired },
  }),
  op('article', 'get', same(ALL, { query: OPEN_QUERY, idKind: '_idOrCustomerNumber' })),
  op('article', 'create', {
    A: { query: NO_QUERY, body: { required: ['name', 'articleNumber'] } },
    B: {
      query: NO_QUERY,
      body: {
        required: ['name', 'customerNumber', 'packagingUnits'],
        nonEmpty: ['packagingUnits'],
      },
    },
    C: {
      query: NO_QUERY,
      body: {
        required: ['name', 'customerNumber', 'packagingUnits'],
        nonEmpty: ['packagingUnits'],
      },
    },
  }),
  op('article', 'replace', {
    A: { query: OPEN_QUERY, idKind: '_id' },
    B: {
      query: OPEN_QUERY,
      idKind: '_idOrCustomerNumber',
      body: {
        required: ['name', 'customerNumber', 'packagingUnits'],
        nonEmpty: ['packagingUnits'],
      },
    },
    C: { query: NO_QUERY, idKind: 'customerNumber' },
  }),
  op('article', 'update', same(['A'], { query: OPEN_QUERY, idKind: '_id' })),
  // Master data, read only
  ...masterData('doctor'),
  ...masterData('payer'),
  ...masterData('hospital'),
  ...masterData('nursingHome'),
  ...masterData('nursingService'),
  ...masterData('pharmacy'),
  op('postalCode', 'list', {
    // "list takes `_id`, `updatedAfter` or `postalCode` (variant B: exactly one of them)"
    A: { query: idOrUpdatedAfter(['_id', 'updatedAfter', 'postalCode'], 'none') },
    B: { query: idOrUpdatedAfter(['_id', 'updatedAfter', 'postalCode'], 'exactlyOne') },
    C: { query: idOrUpdatedAfter(['_id', 'updatedAfter', 'postalCode'], 'none') },
  }),
  op('postalCode', 'get', same(ALL, { query: OPEN_QUERY, idKind: '_id' })),
  op('region', 'list', same(ALL, { query: NO_QUERY })),
  op('region', 'get', same(ALL, { query: OPEN_QUERY, idKind: '_id' })),
  op('users', 'list', {
    A: { query: updatedAfterRequired },
    B: { query: updatedAfterRequired },
    C: { query: statusAndUpdatedAfter('users', 'ignore') },
  }),
  op('users', 'get', same(ALL, { query: OPEN_QUERY, idKind: '_id' })),
  // Attachment
  op('attachment', 'list', {
    A: {
      query: { params: { createdAfter: datetime }, required: ['createdAfter'], extra: 'ignore' },
    },
    B: { query: { params: { createdAfter: datetime, archivedAfter: datetime }, extra: 'ignore' } },
    C: { query: { params: { createdAfter: datetime }, extra: 'ignore' } },
  }),
  op('attachment', 'create', {
    B: {
      query: OPEN_QUERY,
      body: {
        required: ['data', 'metadata', 'mime', 'filename', 'metadata.patientId', 'metadata.type'],
      },
    },
  }),
  op('attachment', 'download', {
    C: { query: OPEN_QUERY, idKind: 'attachmentId', response: 'file' },
  }),
  // Device
  op('device', 'get', { B: { query: OPEN_QUERY, idKind: '_id' } }),
  op(
    'device',
    'create',
    same(ALL, {
      ...created,
      body: { required: ['patientId', 'serialNumber', 'description'], forbidden: ['_id'] },
      response: 'deviceAck',
    }),
  ),
  op(
    'device',
    'replace',
    same(ALL, {
      query: { params: { id: uuid }, extra: 'ignore' },
      idKind: '_id',
      idQueryParam: 'id',
      body: { required: ['patientId', 'serialNumber', 'description'] },
      response: 'deviceAck',
    }),
  ),
  // Contracts (A)
  op('contractArticleGroup', 'list', same(['A'], { query: updatedAfterOptional })),
  op('contractArticleGroup', 'create', same(['A'], { query: OPEN_QUERY })),
  op('contractArticleGroup', 'replace', same(['A'], { query: OPEN_QUERY, idKind: '_id' })),
  op('insuranceContract', 'list', same(['A'], { query: updatedAfterOptional })),
  op('insuranceContract', 'create', same(['A'], { query: OPEN_QUERY })),
  op('insuranceContract', 'replace', same(['A'], { query: OPEN_QUERY, idKind: '_id' })),
  // Product group (B)
  op('productGroup', 'list', same(['B'], { query: updatedAfterOptional })),
  op('productGroup', 'get', same(['B'], { query: OPEN_QUERY, idKind: '_id' })),
  op(
    'productGroup',
    'create',
    same(['B'], {
      query: OPEN_QUERY,
      body: { required: ['name', 'type'], forbidden: ['_id'], notTrue: ['archived'] },
    }),
  ),
  op(
    'productGroup',
    'update',
    // "body {name} (required); only the name may change"
    same(['B'], {
      query: OPEN_QUERY,
      idKind: '_id',
      body: { required: ['name'], only: ['name'] },
    }),
  ),
  // Document
  op(
    'document',
    'list',
    same(ALL, {
      query: {
        params: { createdAfter: datetime, templateId: text },
        required: ['createdAfter'],
        extra: 'ignore',
      },
    }),
  ),
  op(
    'document',
    'get',
    same(ALL, {
      query: { params: { xml: bool }, extra: 'ignore' },
      idKind: '_id',
      response: 'pdfOrXml',
    }),
  ),
];
