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

    listPatientNotes: (query: { updatedAfter?: Timestamp; patientId?: string }): Records =>
      core.list('patientNote', query),
    createPatientNote: (body: PlatformRecord): One =>
      core.record('patientNote', 'create', { body }),
    patchPatientNote: (id: string, body: PlatformRecord): One =>
      core.record('patientNote', 'update', { id, body }),
    listPatientHistory: (query: { updatedAfter: Timestamp }): Records =>
      core.list('patientHistory', query),

    listSingleOrders: (query: ChangeQuery<'singleOrder'>): Records =>
      core.list('singleOrder', query),
    patchSingleOrder: (id: string, body: PlatformRecord): One =>
      core.record('singleOrder', 'update', { id, body }),
    listDirectOrders: (query: ChangeQuery<'directOrder'>): Records =>
      core.list('directOrder', query),
    patchDirectOrder: (id: string, body: PlatformRecord): One =>
      core.record('directOrder', 'update', { id, body }),

    listIntegratedCare: (query: ChangeQuery<'integratedCare'>): Records =>
      core.list('integratedCare', query),
    createIntegratedCare: (body: PlatformRecord): One =>
      core.record('integratedCare', 'create', { body }),
    patchIntegratedCare: (id: string, body: PlatformRecord): One =>
      core.record('integratedCare', 'update', { id, body }),

    listErpOrders: (query: UpdatedAfterQuery = {}): Records => core.list('erpOrder', query),
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
    getDoctor: get('doctor'),
    listPayers: (query: MasterDataQuery): Records => core.list('payer', query),
    getPayer: get('payer'),
    listHospitals: (query: MasterDataQuery): Records => core.list('hospital', query),
    getHospital: get('hospital'),
    listNursingHomes: (query: MasterDataQuery): Records => core.list('nursingHome', query),
    getNursingHome: get('nursingHome'),
    listNursingServices: (query: MasterDataQuery): Records => core.list('nursingService', query),
    getNursingService: get('nursingService'),
    listPharmacies: (query: MasterDataQuery): Records => core.list('pharmacy', query),
    getPharmacy: get('pharmacy'),
    listPostalCodes: (query: MasterDataQuery & { postalCode?: string }): Records =>
      core.list('postalCode', query),
    getPostalCode: get('postalCode'),
    listRegions: (): Records => core.list('region'),
    getRegion: get('region'),
    listUsers: (query: { updatedAfter: Timestamp; status?: StatusOf<'users'> }): Records =>
      core.list('users', query),
    getUser: get('users'),

    listAttachments: (query: { createdAfter?: Timestamp; archivedAfter?: Timestamp }): Records =>
      core.list('attachment', query),
    createAttachment: (body: PlatformRecord): One => core.record('attachment', 'create', { body }),
    downloadAttachment: (attachmentId: string) =>
      core.file('attachment', 'download', { id: attachmentId }),

    getDevice: get('device'),
    createDevice: (body: PlatformRecord): One => core.record('device', 'create', { body }),
    replaceDevice: (id: string, body: PlatformRecord): One =>
      core.record('device', 'replace', { id, body }),

    listProductGroups: (query: UpdatedAfterQuery = {}): Records => core.list('productGroup', query),
    getProductGroup: get('productGroup'),
    createProductGroup: (body: PlatformRecord): One =>
      core.record('productGroup', 'create', { body }),
    patchProductGroup: (id: string, body: PlatformRecord): One =>
      core.record('productGroup', 'update', { id, body }),

    listContractArticleGroups: (query: UpdatedAfterQuery = {}): Records =>
      core.list('contractArticleGroup', query),
    createContractArticleGroup: (body: PlatformRecord): One =>
      core.record('contractArticleGroup', 'create', { body }),
    replaceContractArticleGroup: (id: string, body: PlatformRecord): One =>
      core.record('contractArticleGroup', 'replace', { id, body }),
    listInsuranceContracts: (query: UpdatedAfterQuery = {}): Records =>
      core.list('insuranceContract', query),
    createInsuranceContract: (body: PlatformRecord): One =>
      core.record('insuranceContract', 'create', { body }),
    replaceInsuranceContract: (id: string, body: PlatformRecord): One =>
      core.record('insuranceContract', 'replace', { id, body }),

    listDocuments: (query: { createdAfter: Timestamp; templateId?: string }): Records =>
      core.list('document', query),
    /** The completed form as the generated PDF. */
    getDocumentPdf: async (id: string): Promise<Buffer> =>
      (await core.file('document', 'get', { id, query: { xml: false } })).data,
    /** The completed form as XML text. */
    getDocumentXml: async (id: string): Promise<string> =>
      (await core.file('document', 'get', { id, query: { xml: true } })).data.toString('utf8'),
  };
}

export type PlatformEndpoints = ReturnType<typeof endpointsOf>;
