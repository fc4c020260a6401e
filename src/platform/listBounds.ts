import type { ResourceName } from '../contract/index.js';
import type { ListBound } from './errors.js';

/**
 * What one list may take before its pull stops: a platform (or a proxy) that streams without
 * end must not fill the disk or hold `sync --once` for ever. The caller names each bound's
 * config key, which the error repeats.
 */
export interface ListBounds {
  records: ListBound;
  /** Bytes of the answer. */
  bytes: ListBound;
  /** Seconds from the first request to the last byte, retries included. */
  seconds: ListBound;
  /** A record longer than this is set aside unread, under its `_id`; the list goes on. */
  recordBytes: ListBound;
  /** A record nested deeper than this is set aside too: what stores it cannot hold it. */
  depth: number;
}

const MIB = 1024 * 1024;

/**
 * The defaults of `sync.*`. The database keeps about 2.4 times the JSON of small records (the
 * mirror, the ledger and the queued hand-over each take a row): 384 MiB holds a catalogue of
 * 320,000 articles (≈ 1.1 KiB each) and keeps what one endless list leaves under 1 GiB; a first
 * pull larger than that raises it once. 16 MiB per record is hundreds of times a real one. 15
 * minutes lets a first pull of 320,000 articles through at 0.4 MB/s and still ends a list that
 * trickles.
 */
export const DEFAULT_LIST_BOUNDS = {
  maxListBytes: 384 * MIB,
  maxRecordBytes: 16 * MIB,
  maxListSeconds: 900,
} as const;

/**
 * Lists that are master data of a whole country or a whole catalogue: real catalogues hold about
 * 300,000 articles. At ≈ 2.8 KB of database per record, more would let one endless list past 1 GiB.
 */
const LARGE = 320_000;
/** Lists that grow with a supplier's business: patients, orders, their notes and files. */
const BUSINESS = 200_000;
/** Registries of institutions: tens of thousands nation-wide. */
const REGISTRY = 100_000;
/** Lists a supplier keeps small: its regions, users, groups and contracts. */
const SMALL = 50_000;

const MAX_RECORDS: Readonly<Record<ResourceName, number>> = {
  article: LARGE,
  doctor: LARGE,
  patient: BUSINESS,
  patientNote: BUSINESS,
  patientHistory: BUSINESS,
  singleOrder: BUSINESS,
  directOrder: BUSINESS,
  integratedCare: BUSINESS,
  erpOrder: BUSINESS,
  attachment: BUSINESS,
  document: BUSINESS,
  device: BUSINESS,
  payer: REGISTRY,
  hospital: REGISTRY,
  nursingHome: REGISTRY,
  nursingService: REGISTRY,
  pharmacy: REGISTRY,
  postalCode: REGISTRY,
  patientCustomerMapping: BUSINESS,
  region: SMALL,
  users: SMALL,
  productGroup: SMALL,
  contractArticleGroup: SMALL,
  insuranceContract: SMALL,
};

/** The default of `sync.resources.<resource>.maxRecords`: records one list of it may have. */
export function defaultMaxRecords(resource: ResourceName): number {
  return MAX_RECORDS[resource];
}
