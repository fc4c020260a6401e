export { createFileAdapter, type FileAdapterDeps } from './fileAdapter.js';
export { nodeOutboxFs, type OutboxFs } from './atomicWrite.js';
export { PATIENT_CUSTOMER_ID_FIELD, OPENTRANS_NAMESPACE } from './openTrans.js';
export { recordBaseName, batchBaseName, safeSegment, safeVersion } from './names.js';
export { encodeText } from './csvFile.js';
export * from './options.js';
