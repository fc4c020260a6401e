/**
 * Every resource of the platform, by the name the platform uses. `path` is the collection path;
 * a path the spec does not show (`pathKey`) is read from `platform.paths` in the config.
 * `refersTo`: the resources whose records a record of this one names by id and goes out to the
 * ERP with (an order's patient, articles and care arrangement). `derivedOnWrite`: the fields the
 * platform fills from others on a write (spec document 2: "`regionId` is taken from the
 * patient", "`standardCareProposalId` is derived when omitted"), part of that write's effect.
 */
export const RESOURCES = {
  patient: { path: '/patient' },
  patientCustomerMapping: { path: '/patient/customerMapping' },
  patientNote: { path: '/patientNote' },
  patientHistory: { path: '/patientHistory' },
  singleOrder: { path: '/singleOrder', refersTo: ['patient', 'article', 'integratedCare'] },
  directOrder: { path: '/directOrder', refersTo: ['patient', 'article'] },
  integratedCare: {
    path: '/integratedCare',
    refersTo: ['patient', 'article'],
    derivedOnWrite: ['regionId', 'standardCareProposalId'],
  },
  erpOrder: { path: '/erpOrder', derivedOnWrite: ['regionId'] },
  article: { path: '/article' },
  doctor: { path: '/doctor' },
  payer: { path: '/payer' },
  hospital: { path: '/hospital' },
  nursingHome: { path: '/nursingHome' },
  nursingService: { path: '/nursingService' },
  pharmacy: { path: '/pharmacy' },
  region: { path: '/region' },
  users: { path: '/users' },
  postalCode: { path: '/postalCode', pathKey: 'postalCode' },
  attachment: { path: '/attachment', derivedOnWrite: ['regionId'] },
  device: { path: '/device', derivedOnWrite: ['regionId'] },
  contractArticleGroup: { path: '/contractArticleGroup' },
  insuranceContract: { path: '/insuranceContract' },
  productGroup: { path: '/productGroup' },
  document: { path: '/document' },
} as const satisfies Record<
  string,
  {
    path: string;
    pathKey?: string;
    refersTo?: readonly string[];
    derivedOnWrite?: readonly string[];
  }
>;

export type ResourceName = keyof typeof RESOURCES;

/** The resources a record of `resource` refers to (see `refersTo` above). */
export function referredResources(resource: ResourceName): readonly ResourceName[] {
  const entry = RESOURCES[resource];
  return 'refersTo' in entry ? entry.refersTo : [];
}

/** The fields the platform derives on a write of `resource` (see `derivedOnWrite` above). */
export function derivedOnWrite(resource: ResourceName): readonly string[] {
  const entry = RESOURCES[resource];
  return 'derivedOnWrite' in entry ? entry.derivedOnWrite : [];
}
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

export function isResourceName(value: unknown): value is ResourceName {
  return typeof value === 'string' && Object.hasOwn(RESOURCES, value);
}

/**
 * Paths the spec leaves open. The defaults are our guess; operators override them in
 * `platform.paths` when their platform publishes another one.
 */
export const DEFAULT_OPEN_PATHS = {
  postalCode: '/postalCode',
  attachmentDownload: '/attachment/{id}',
} as const;

export type OpenPaths = { [K in keyof typeof DEFAULT_OPEN_PATHS]: string };
