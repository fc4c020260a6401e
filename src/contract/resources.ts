/**
 * Every resource of the platform, by the name the platform uses. `path` is the collection path;
 * a path the spec does not show (`pathKey`) is read from `platform.paths` in the config.
 */
export const RESOURCES = {
  patient: { path: '/patient' },
  patientCustomerMapping: { path: '/patient/customerMapping' },
  patientNote: { path: '/patientNote' },
  patientHistory: { path: '/patientHistory' },
  singleOrder: { path: '/singleOrder' },
  directOrder: { path: '/directOrder' },
  integratedCare: { path: '/integratedCare' },
  erpOrder: { path: '/erpOrder' },
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
  attachment: { path: '/attachment' },
  device: { path: '/device' },
  contractArticleGroup: { path: '/contractArticleGroup' },
  insuranceContract: { path: '/insuranceContract' },
  productGroup: { path: '/productGroup' },
  document: { path: '/document' },
} as const satisfies Record<string, { path: string; pathKey?: string }>;

export type ResourceName = keyof typeof RESOURCES;
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
