import { checkRecord, entitySchema, type ResourceName } from '../contract/index.js';
import type { OutboundRecord } from '../erp/adapter.js';
import type { PlatformClient } from '../platform/index.js';
import { upsertMirror, type Store } from '../store/index.js';
import type { Reference } from '../sync/enrich.js';

/**
 * Fetches a patient or article the mirror lacks by its id and keeps it in the mirror. Care
 * arrangements have no single-item read: they wait for their next pull.
 */
export function referenceFetcher(client: PlatformClient, store: Store) {
  return async (reference: Reference): Promise<boolean> => {
    const { resource, id } = reference;
    if (resource !== 'patient' && resource !== 'article') return false;
    if (!client.contract.find(resource, 'get')) return false;
    const raw = await client.record(resource, 'get', { id });
    const check = checkRecord(resource, entitySchema(resource), raw);
    if (!check.ok) return false;
    upsertMirror(store, resource, { ...check.record, _id: check.id }, check.version);
    return true;
  };
}

const extension = (filename: unknown): string => {
  const match = typeof filename === 'string' ? /\.([A-Za-z0-9]{1,8})$/.exec(filename) : null;
  return match?.[1]?.toLowerCase() ?? 'bin';
};

/** The binary companions a record goes out with: a document's PDF and XML, an attachment's file. */
export function filesFetcher(client: PlatformClient) {
  return async (
    resource: ResourceName,
    record: Record<string, unknown>,
  ): Promise<OutboundRecord['files']> => {
    const id = typeof record['_id'] === 'string' ? record['_id'] : undefined;
    if (id === undefined) return undefined;
    if (resource === 'document') {
      const pdf = await client.file('document', 'get', { id });
      const xml = await client.file('document', 'get', { id, query: { xml: 'true' } });
      return [
        { suffix: 'pdf', contentType: pdf.contentType, data: pdf.data },
        { suffix: 'xml', contentType: xml.contentType, data: xml.data },
      ];
    }
    if (resource === 'attachment' && client.contract.find('attachment', 'download')) {
      const file = await client.file('attachment', 'download', { id });
      return [
        { suffix: extension(record['filename']), contentType: file.contentType, data: file.data },
      ];
    }
    return undefined;
  };
}
