export { createFileAdapter, type FileAdapterDeps } from './fileAdapter.js';
export { nodeOutboxFs, type OutboxFs } from './atomicWrite.js';
export { recordBaseName, batchBaseName, safeSegment, safeVersion } from './names.js';
export * from './options.js';
export { batchFile, recordFile } from './render.js';
export { folderOf, type OutboxFile } from './placement.js';
export { archivalFileName, archivalFolderOf } from './archivalEvents.js';
export { folderWritable } from './probe.js';
export { isBatchFormat } from '../../formats/index.js';
