import { checkRecord, entitySchema, type ResourceName } from '../contract/index.js';
import type { OutboundRecord } from '../erp/adapter.js';
import type { PlatformClient } from '../platform/index.js';
import {
  mirrorKey,
  transaction,
  upsertMirror,
  type MirrorRecord,
  type Store,
} from '../store/index.js';
import type { Reference } from './enrich.js';

type Checked = { resource: ResourceName; record: MirrorRecord; version: string };

async function fetchOne(
  client: PlatformClient,
  reference: Reference,
): Promise<Checked | undefined> {
  const { resource, id } = reference;
  if (resource !== 'patient' && resource !== 'article') return undefined;
  if (!client.contract.find(resource, 'get')) return undefined;
  const raw = await client.record(resource, 'get', { id });
  const check = checkRecord(resource, entitySchema(resource), raw);
  if (!check.ok) return undefined;
  return { resource, record: { ...check.record, _id: check.id }, version: check.version };
}

/**
 * Fetches the patients and articles the mirror lacks by their ids, side by side (the client
 * bounds how many at once), and keeps those found in the mirror in one transaction. Care
 * arrangements have no single-item read: they wait for their next pull. Answers the fetches
 * that failed, by `mirrorKey`; a record not found is simply not in the mirror afterwards.
 */
export function referenceFetcher(client: PlatformClient, store: Store) {
  return async (references: readonly Reference[]): Promise<ReadonlyMap<string, unknown>> => {
    const outcomes = await Promise.allSettled(references.map((ref) => fetchOne(client, ref)));
    const failures = new Map<string, unknown>();
    const found: Checked[] = [];
    outcomes.forEach((outcome, index) => {
      const ref = references[index];
      if (outcome.status === 'rejected') {
        if (ref !== undefined) failures.set(mirrorKey(ref.resource, ref.id), outcome.reason);
      } else if (outcome.value !== undefined) found.push(outcome.value);
    });
    if (found.length > 0) {
      transaction(store, () => {
        for (const { resource, record, version } of found) {
          upsertMirror(store, resource, record, version);
        }
      });
    }
    return failures;
  };
}

const extension = (filename: unknown): string => {
  const match = typeof filename === 'string' ? /\.([A-Za-z0-9]{1,8})$/.exec(filename) : null;
  return match?.[1]?.toLowerCase() ?? 'bin';
};

/** The resources whose records go out with files fetched at the hand-over (filesFetcher). */
export const RESOURCES_WITH_FILES: ReadonlySet<ResourceName> = new Set(['document', 'attachment']);

/** The binary companions a record goes out with: a document's PDF and XML, an attachment's file. */
export function filesFetcher(client: PlatformClient) {
  return async (
    resource: ResourceName,
    record: Record<string, unknown>,
  ): Promise<OutboundRecord['files']> => {
    const id = typeof record['_id'] === 'string' ? record['_id'] : undefined;
    if (id === undefined || !RESOURCES_WITH_FILES.has(resource)) return undefined;
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
