import type { STATUS_FILTERS, StatusFilterResource } from '../contract/index.js';
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
  const get = (resource: Parameters<PlatformCore['record']>[0]) => (id: string) =>
    core.record(resource, 'get', { id });
  // PUT in some variants, PATCH in others: whichever the contract offers.
  const patientUpdate = core.contract.find('patient', 'replace') ? 'replace' : 'update';

  return {
    listPatients: (query: UpdatedAfterQuery = {}): Records => core.list('patient', query),
    getPatient: get('patient'),
    createPatient: (body: PlatformRecord): One => core.record('patient', 'create', { body }),
    updatePatient: (id: string, body: PlatformRecord): One =>
      core.record('patient', patientUpdate, { id, body }),
    getPatientCustomerMapping: (customerId: string): One =>
      core.record('patientCustomerMapping', 'get', { query: { customerId } }),

    createPatientNote: (body: PlatformRecord): One =>
      core.record('patientNote', 'create', { body }),
    patchPatientNote: (id: string, body: PlatformRecord): One =>
      core.record('patientNote', 'update', { id, body }),

    listSingleOrders: (query: ChangeQuery<'singleOrder'>): Records =>
      core.list('singleOrder', query),
    patchSingleOrder: (id: string, body: PlatformRecord): One =>
      core.record('singleOrder', 'update', { id, body }),
    listDirectOrders: (query: ChangeQuery<'directOrder'>): Records =>
      core.list('directOrder', query),
    patchDirectOrder: (id: string, body: PlatformRecord): One =>
      core.record('directOrder', 'update', { id, body }),

    createIntegratedCare: (body: PlatformRecord): One =>
      core.record('integratedCare', 'create', { body }),
    patchIntegratedCare: (id: string, body: PlatformRecord): One =>
      core.record('integratedCare', 'update', { id, body }),

    getErpOrder: (salesId: string): One => core.record('erpOrder', 'get', { id: salesId }),
    createErpOrder: (body: PlatformRecord): One => core.record('erpOrder', 'create', { body }),
    replaceErpOrder: (salesId: string, body: PlatformRecord): One =>
      core.record('erpOrder', 'replace', { id: salesId, body }),

    listArticles: (query: { updatedAfter: Timestamp; status?: StatusOf<'article'> }): Records =>
      core.list('article', query),
    getArticle: (idOrCustomerNumber: string): One =>
      core.record('article', 'get', { id: idOrCustomerNumber }),
    createArticle: (body: PlatformRecord): One => core.record('article', 'create', { body }),
    replaceArticle: (id: string, body: PlatformRecord): One =>
      core.record('article', 'replace', { id, body }),
    patchArticle: (id: string, body: PlatformRecord): One =>
      core.record('article', 'update', { id, body }),

    listDoctors: (query: MasterDataQuery): Records => core.list('doctor', query),
    listPostalCodes: (query: MasterDataQuery & { postalCode?: string }): Records =>
      core.list('postalCode', query),
    listRegions: (): Records => core.list('region'),

    createAttachment: (body: PlatformRecord): One => core.record('attachment', 'create', { body }),

    createDevice: (body: PlatformRecord): One => core.record('device', 'create', { body }),
    replaceDevice: (id: string, body: PlatformRecord): One =>
      core.record('device', 'replace', { id, body }),

    getProductGroup: get('productGroup'),
    createProductGroup: (body: PlatformRecord): One =>
      core.record('productGroup', 'create', { body }),
    patchProductGroup: (id: string, body: PlatformRecord): One =>
      core.record('productGroup', 'update', { id, body }),

    createContractArticleGroup: (body: PlatformRecord): One =>
      core.record('contractArticleGroup', 'create', { body }),
    replaceContractArticleGroup: (id: string, body: PlatformRecord): One =>
      core.record('contractArticleGroup', 'replace', { id, body }),
    createInsuranceContract: (body: PlatformRecord): One =>
      core.record('insuranceContract', 'create', { body }),
    replaceInsuranceContract: (id: string, body: PlatformRecord): One =>
      core.record('insuranceContract', 'replace', { id, body }),

    /** The completed form as the generated PDF. */
    getDocumentPdf: async (id: string): Promise<Buffer> =>
      (await core.file('document', 'get', { id, query: { xml: false } })).data,
    /** The completed form as XML text. */
    getDocumentXml: async (id: string): Promise<string> =>
      (await core.file('document', 'get', { id, query: { xml: true } })).data.toString('utf8'),
  };
}

export type PlatformEndpoints = ReturnType<typeof endpointsOf>;
