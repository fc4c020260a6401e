/**
 * The config's sections as zod reads them, before the checks across sections (checks.ts) and the
 * time zones filled in (schema.ts): a file of its own so that checks.ts can name what it checks
 * without importing the schema that runs it.
 */
import { z } from 'zod';
import {
  DEFAULT_OPEN_PATHS,
  DEFAULT_READINGS,
  INTEGRATED_CARE_ACKS,
  RESOURCE_NAMES,
  VARIANTS,
  type ResourceName,
} from '../contract/index.js';
import { STATUS_FILTERS } from '../contract/statusFilters.js';
import { DEFAULT_READ_RETRY } from '../platform/backoff.js';
import { DEFAULT_LIST_BOUNDS } from '../platform/listBounds.js';
import { erpSchema, httpSchema } from './erpSchema.js';
import { alertsSchema } from './alertsSchema.js';
import { queueSchema } from './queueSchema.js';
import { consoleSchema } from './consoleSchema.js';
import { retentionSchema } from './retentionSchema.js';
import {
  cronExpression,
  flag,
  httpUrl,
  integer,
  LOG_LEVELS,
  nonEmpty,
  optionalFlag,
  platformPath,
  timeZoneName,
} from './fields.js';
import { UNKNOWN_FIELDS } from '../erp/messages/fields.js';
import { LOG_FORMATS } from '../log/logger.js';

const platformSchema = z.strictObject({
  baseUrl: httpUrl,
  apiKey: z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'required: set platform.apiKey, or platform.apiKeyFile to read it from a file'
          : undefined,
    })
    .min(1, 'must not be empty'),
  apiKeyFile: nonEmpty.optional(),
  variant: z.enum(VARIANTS),
  timeoutMs: integer(1, 30_000),
  concurrency: integer(1, 4),
  caFile: nonEmpty.optional(),
  /** Reads (GET) are tried again in place on a transient error; writes go through the queue. */
  readRetry: z
    .strictObject({
      attempts: integer(1, DEFAULT_READ_RETRY.attempts),
      baseDelayMs: integer(1, DEFAULT_READ_RETRY.baseDelayMs),
      maxDelayMs: integer(1, DEFAULT_READ_RETRY.maxDelayMs),
    })
    .prefault({}),
  paths: z
    .strictObject({
      postalCode: platformPath(DEFAULT_OPEN_PATHS.postalCode),
      attachmentDownload: platformPath(DEFAULT_OPEN_PATHS.attachmentDownload, true),
    })
    .prefault({}),
});

function hasStatusFilter(resource: ResourceName): resource is keyof typeof STATUS_FILTERS {
  return Object.hasOwn(STATUS_FILTERS, resource);
}

/** `statuses` only where the resource has a status filter, and only its values. */
function statusesSchema(resource: ResourceName) {
  if (hasStatusFilter(resource)) {
    return z
      .array(z.enum(STATUS_FILTERS[resource]))
      .min(1, 'list at least one status, or set enabled: false')
      .optional();
  }
  return z
    .custom<never>(() => false, {
      message: `${resource} has no status filter; remove statuses (resources with one: ${Object.keys(STATUS_FILTERS).join(', ')})`,
    })
    .optional();
}

function resourceSettingsSchema(resource: ResourceName) {
  return z
    .strictObject({
      schedule: cronExpression.optional(),
      enabled: optionalFlag,
      statuses: statusesSchema(resource),
      /**
       * Records one list may have. The integer's default is unwrapped: left out, the resource's
       * own default applies (platform/listBounds.ts), and the entry reads as it was written.
       */
      maxRecords: integer(1, 1).unwrap().optional(),
    })
    .optional();
}

/** One optional entry per resource name, so an unknown name is an unknown key. */
const resourcesSchema = z
  .strictObject(
    Object.fromEntries(RESOURCE_NAMES.map((name) => [name, resourceSettingsSchema(name)])) as {
      [K in ResourceName]: ReturnType<typeof resourceSettingsSchema>;
    },
  )
  .prefault({});

const syncSchema = z.strictObject({
  overlapSeconds: integer(0, 120),
  createdLookbackDays: integer(1, 30),
  jitterSeconds: integer(0, 10),
  /** Records committed per transaction while a list streams in. */
  batchSize: integer(1, 500),
  /** Bounds on every list, so one that never ends cannot fill the disk (docs/readme/pulling.md). */
  maxListBytes: integer(1, DEFAULT_LIST_BOUNDS.maxListBytes),
  maxRecordBytes: integer(1, DEFAULT_LIST_BOUNDS.maxRecordBytes),
  maxListSeconds: integer(1, DEFAULT_LIST_BOUNDS.maxListSeconds),
  reconcile: z
    .strictObject({
      enabled: flag(true),
      schedule: cronExpression.default('30 2 * * *'),
      days: integer(1, 7),
    })
    .prefault({}),
  resources: resourcesSchema,
});

const retrySchema = z
  .strictObject({
    maxAttempts: integer(1, 12),
    baseDelayMs: integer(1, 1_000),
    maxDelayMs: integer(1, 900_000),
  })
  .superRefine((retry, ctx) => {
    if (retry.maxDelayMs < retry.baseDelayMs) {
      ctx.addIssue({
        code: 'custom',
        path: ['maxDelayMs'],
        message: `must be at least baseDelayMs (${retry.baseDelayMs}), got ${retry.maxDelayMs}`,
      });
    }
  });

export const baseConfigSchema = z.strictObject({
  platform: platformSchema,
  storage: z.strictObject({ path: nonEmpty.default('./data/homecare-sync.db') }).prefault({}),
  /** How long finished work and the personal data in it are kept (docs/readme/data-protection.md). */
  retention: retentionSchema.prefault({}),
  sync: syncSchema.prefault({}),
  erp: erpSchema.prefault({}),
  retry: retrySchema.prefault({}),
  queue: queueSchema,
  http: httpSchema.prefault({}),
  /** The operator's web console on the endpoint, under /console: off unless enabled. */
  console: consoleSchema.prefault({}),
  /** Optional: each state (platform or ERP unreachable, disk full, …) fires once and clears once. */
  alerts: alertsSchema.optional(),
  /** Messages from the ERP, by file and by `POST /erp/<kind>` alike. */
  inbound: z.strictObject({ unknownFields: z.enum(UNKNOWN_FIELDS).default('refuse') }).prefault({}),
  /** How what the ERP has is acknowledged where the spec leaves it open (docs/readme/config.md). */
  ack: z
    .strictObject({
      integratedCare: z.enum(INTEGRATED_CARE_ACKS).default(DEFAULT_READINGS.integratedCareAck),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(LOG_LEVELS).default('info'),
      format: z.enum(LOG_FORMATS).default('auto'),
    })
    .prefault({}),
  /** IANA time zone of schedules, readiness and the inbox archive's date folders. */
  timezone: timeZoneName.optional(),
});

/** The config as its sections read it, before the checks across them and the defaults after. */
export type ParsedConfig = z.output<typeof baseConfigSchema>;
