import type { ResourceName } from '../contract/index.js';

/** A reference an outgoing record needs resolved before the ERP may see it. */
export interface Reference {
  resource: ResourceName;
  id: string;
}

/** Reads the latest mirrored version of a record. */
export type MirrorLookup = (
  resource: ResourceName,
  id: string,
) => Record<string, unknown> | undefined;

export type Enrichment =
  { ok: true; record: Record<string, unknown> } | { ok: false; missing: Reference[] };

/** The patient fields the ERP needs to deliver: its customer number and the address block. */
const PATIENT_BLOCK = [
  'customerId',
  'gender',
  'title',
  'firstName',
  'lastName',
  'address',
  'additionalAddress',
  'additionalAddress2',
  'postalCode',
  'city',
  'phone',
] as const;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const lines = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value)
    ? value.filter((l): l is Record<string, unknown> => l !== null && typeof l === 'object')
    : [];

function pick(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(
    fields.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]),
  );
}

interface Resolver {
  get(resource: ResourceName, id: string | undefined): Record<string, unknown> | undefined;
  missing: Reference[];
}

function resolver(lookup: MirrorLookup): Resolver {
  const missing: Reference[] = [];
  return {
    missing,
    get(resource, id) {
      if (id === undefined) return undefined;
      const found = lookup(resource, id);
      if (!found && !missing.some((m) => m.resource === resource && m.id === id))
        missing.push({ resource, id });
      return found;
    },
  };
}

function enrichedLines(resolve: Resolver, source: unknown): Record<string, unknown>[] | undefined {
  if (!Array.isArray(source)) return undefined;
  return lines(source).map((line) => {
    const article = resolve.get('article', text(line['articleId']));
    return {
      ...line,
      articleCustomerNumber: text(line['articleCustomerNumber']) ?? article?.['customerNumber'],
      articleName: article?.['name'],
    };
  });
}

/**
 * Adds the ERP's own keys to an order or care arrangement, from the mirror, as flat fields the
 * file formats (CSV columns included) can carry: `patientCustomerId` and the patient's name and
 * address block under `patient`; on every line the article's `customerNumber` (where the
 * platform left it out) and `articleName`; on a single order `integratedCareSalesId`. The
 * platform's own fields stay as sent. Other resources pass unchanged. When a reference is not
 * in the mirror the record is not enriched half-way: the missing references are returned.
 */
export function enrich(
  resource: ResourceName,
  record: Record<string, unknown>,
  lookup: MirrorLookup,
): Enrichment {
  if (resource !== 'singleOrder' && resource !== 'directOrder' && resource !== 'integratedCare') {
    return { ok: true, record };
  }
  const resolve = resolver(lookup);
  const patient = resolve.get('patient', text(record['patientId']));
  const linesField = resource === 'integratedCare' ? 'proposedArticleLines' : 'orderedArticleLines';
  const enriched: Record<string, unknown> = {
    ...record,
    patientCustomerId: patient?.['customerId'],
    patient: patient ? pick(patient, PATIENT_BLOCK) : undefined,
  };
  const withLines = enrichedLines(resolve, record[linesField]);
  if (withLines) enriched[linesField] = withLines;
  if (resource === 'singleOrder') {
    const care = resolve.get('integratedCare', text(record['integratedCareId']));
    enriched['integratedCareSalesId'] = care?.['salesId'];
  }
  if (resolve.missing.length > 0) return { ok: false, missing: resolve.missing };
  return { ok: true, record: enriched };
}

/** The references `enrich` reads for a record: those it misses in an empty mirror. */
export function referencesOf(resource: ResourceName, record: Record<string, unknown>): Reference[] {
  const result = enrich(resource, record, () => undefined);
  return result.ok ? [] : result.missing;
}
