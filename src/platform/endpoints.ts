import type { ResourceName, STATUS_FILTERS, StatusFilterResource } from '../contract/index.js';
import type { PlatformRecord } from './bodies.js';
import type { PlatformCore } from './client.js';

/** A moment for `updatedAfter`/`createdAfter`: a Date or an ISO 8601 string. */
export type Timestamp = string | Date;
export type StatusOf<R extends StatusFilterResource> = (typeof STATUS_FILTERS)[R][number];
/** The change-status lists of orders and care arrangements. */
export type ChangeQuery<R extends StatusFilterResource> = {
  status: StatusOf<R>;
  updatedAfter: Timestamp;
};
export type UpdatedAfterQuery = { updatedAfter?: Timestamp };
/** Master data lists: `_id` or `updatedAfter` (variant B: exactly one). */
export type MasterDataQuery = { _id?: string; updatedAfter?: Timestamp };

type Records = AsyncIterable<PlatformRecord>;
type One = Promise<PlatformRecord>;

/** One method per platform endpoint, named in the platform's words. */
export function endpointsOf(core: PlatformCore) {
  const get = (resource: ResourceName) => (id: string) => core.record(resource, 'get', { id });
  const create =
    (resource: ResourceName) =>
    (body: PlatformRecord): One =>
      core.record(resource, 'create', { body });
  /** PATCH (`update`) or PUT (`replace`) of the record `id`. */
  const write =
    (resource: ResourceName, kind: 'update' | 'replace') =>
    (id: string, body: PlatformRecord): One =>
      core.record(resource, kind, { id, body });
  // PUT in some variants, PATCH in others: whichever the contract offers.
  const patientUpdate = core.contract.find('patient', 'replace') ? 'replace' : 'update';

  return {
    listPatients: (query: UpdatedAfterQuery = {}): Records => core.list('patient', query),
    getPatient: get('patient'),
    createPatient: create('patient'),
    updatePatient: write('patient', patientUpdate),
    getPatientCustomerMapping: (customerId: string): One =>
      core.record('patientCustomerMapping', 'get', { query: { customerId } }),

    createPatientNote: create('patientNote'),
    patchPatientNote: write('patientNote', 'update'),

    listSingleOrders: (query: ChangeQuery<'singleOrder'>): Records =>
      core.list('singleOrder', query),
    patchSingleOrder: write('singleOrder', 'update'),
    listDirectOrders: (query: ChangeQuery<'directOrder'>): Records =>
      core.list('directOrder', query),
    patchDirectOrder: write('directOrder', 'update'),

    createIntegratedCare: create('integratedCare'),
    patchIntegratedCare: write('integratedCare', 'update'),

    getErpOrder: (salesId: string): One => core.record('erpOrder', 'get', { id: salesId }),
    createErpOrder: create('erpOrder'),
    replaceErpOrder: (salesId: string, body: PlatformRecord): One =>
      core.record('erpOrder', 'replace', { id: salesId, body }),

    listArticles: (query: { updatedAfter: Timestamp; status?: StatusOf<'article'> }): Records =>
      core.list('article', query),
    getArticle: (idOrCustomerNumber: string): One =>
      core.record('article', 'get', { id: idOrCustomerNumber }),
    createArticle: create('article'),
    replaceArticle: write('article', 'replace'),
    patchArticle: write('article', 'update'),

    listDoctors: (query: MasterDataQuery): Records => core.list('doctor', query),
    listPostalCodes: (query: MasterDataQuery & { postalCode?: string }): Records =>
      core.list('postalCode', query),
    listRegions: (): Records => core.list('region'),

    createAttachment: create('attachment'),

    createDevice: create('device'),
    replaceDevice: write('device', 'replace'),

    getProductGroup: get('productGroup'),
    createProductGroup: create('productGroup'),
    patchProductGroup: write('productGroup', 'update'),

    createContractArticleGroup: create('contractArticleGroup'),
    replaceContractArticleGroup: write('contractArticleGroup', 'replace'),
    createInsuranceContract: create('insuranceContract'),
    replaceInsuranceContract: write('insuranceContract', 'replace'),

    /** The completed form as the generated PDF. */
    getDocumentPdf: async (id: string): Promise<Buffer> =>
      (await core.file('document', 'get', { id, query: { xml: false } })).data,
    /** The completed form as XML text. */
    getDocumentXml: async (id: string): Promise<string> =>
      (await core.file('document', 'get', { id, query: { xml: true } })).data.toString('utf8'),
  };
}

export type PlatformEndpoints = ReturnType<typeof endpointsOf>;
