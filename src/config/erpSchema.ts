import { z } from 'zod';
import { RESOURCE_NAMES, type ResourceName } from '../contract/index.js';
import {
  DEFAULT_FILE_MODE,
  fileModeOf,
  DEFAULT_OPENTRANS_PARTIES,
} from '../erp/outbound/file/options.js';
import { CSV_ENCODINGS, CSV_PROFILE_NAMES, csvProfile } from '../erp/formats/index.js';
import { DEFAULT_INBOX_OPTIONS } from '../erp/inbound/options.js';
import { withoutUndefined } from '../shared/objects.js';
import { flag, httpUrl, integer, nonEmpty, optionalFlag, timeZoneName } from './fields.js';
import { fileMappingChecks } from '../erp/mapping/checks.js';
import {
  inboxMappingsSchema,
  OUTBOX_FORMATS,
  outboundMappingSchema,
  valueTablesSchema,
} from '../erp/mapping/spec.js';

const AUTH_TYPES = ['bearer', 'basic', 'header'] as const;

/** One optional entry per resource name, so an unknown name is an unknown key. */
function perResource<T extends z.ZodType>(entry: T) {
  return z
    .strictObject(
      Object.fromEntries(RESOURCE_NAMES.map((name) => [name, entry.optional()])) as {
        [K in ResourceName]: z.ZodOptional<T>;
      },
    )
    .prefault({});
}

/**
 * CSV options. Each is optional here so that a `profile` can fill in what is not given: the
 * defaults, then the profile, then the options written in the config, later ones winning.
 * `timeZone` stays open until the whole config is known (see `withTimeZones`).
 */
export const csvSchema = z
  .strictObject({
    profile: z.enum(CSV_PROFILE_NAMES).optional(),
    delimiter: z.string().length(1, 'one character, e.g. ";"').optional(),
    quote: z.string().length(1, "one character, e.g. '\"'").optional(),
    quoting: z.enum(['asNeeded', 'all']).optional(),
    header: optionalFlag,
    encoding: z.enum(CSV_ENCODINGS).optional(),
    decimalComma: optionalFlag,
    dateFormat: z.enum(['iso', 'de']).optional(),
    timeZone: timeZoneName.optional(),
    lineEnding: z.enum(['lf', 'crlf']).optional(),
    columns: perResource(z.array(nonEmpty).min(1, 'list at least one column')),
  })
  .transform(({ profile, timeZone, ...given }) => ({
    ...csvProfile(profile),
    ...withoutUndefined(given),
    columns: given.columns,
    profile,
    timeZone,
  }));

/**
 * An octal mode as a quoted string ("0640"), kept as text so that `config check` shows it as
 * written; unquoted, YAML reads 0640 as the decimal 640. The owner (the daemon) must keep read
 * and write, or it could not check its own files.
 */
const fileMode = z
  .string({ error: 'an octal file mode as a quoted string, e.g. "0640"' })
  .regex(/^0?[0-7]{3}$/, 'an octal file mode such as "0640" or "0600"')
  .refine((text) => (fileModeOf(text) & 0o600) === 0o600, {
    error: 'the owner needs read and write (6xx), e.g. "0640"',
  })
  .default(`0${DEFAULT_FILE_MODE.toString(8)}`);

const inbox = DEFAULT_INBOX_OPTIONS;
const fileSchema = z
  .strictObject({
    outbox: nonEmpty.default('./erp/outbox'),
    inbox: nonEmpty.default('./erp/inbox'),
    format: z.enum(OUTBOX_FORMATS).default('json'),
    openTrans: flag(false),
    openTransParties: z
      .strictObject({
        buyerId: nonEmpty.default(DEFAULT_OPENTRANS_PARTIES.buyerId),
        supplierId: nonEmpty.default(DEFAULT_OPENTRANS_PARTIES.supplierId),
      })
      .prefault({}),
    /** The tracking link of a dispatch notification without TRACKING_TRACING_URL. */
    openTransTrackingLink: httpUrl
      .refine((link) => link.includes('{shipmentId}'), {
        error: 'must contain {shipmentId}, where the SHIPMENT_ID of the dispatch notification goes',
      })
      .optional(),
    doneMarker: flag(inbox.doneMarker),
    minFileAgeMs: integer(0, inbox.minFileAgeMs),
    maxFileBytes: integer(1, inbox.maxFileBytes),
    charset: z.enum(['utf-8', 'windows-1252']).default(inbox.charset),
    csvAllOrNothing: flag(inbox.csvAllOrNothing),
    scanIntervalMs: integer(100, 5_000),
    fileMode,
    csv: csvSchema.prefault({}),
    /** The ERP's own layouts (docs/readme/connect-your-erp.md): outbound per resource. */
    mapping: perResource(outboundMappingSchema),
    /** Inbound per inbox kind; the kinds' names are checked where the kinds are known. */
    inboxMapping: inboxMappingsSchema,
    valueTables: valueTablesSchema,
  })
  .superRefine(fileMappingChecks);

/** What each auth type needs; a missing one is reported at its own path. */
const AUTH_NEEDS: Record<
  (typeof AUTH_TYPES)[number],
  readonly ('token' | 'username' | 'password' | 'header')[]
> = {
  bearer: ['token'],
  basic: ['username', 'password'],
  header: ['header', 'token'],
};

const authSchema = z
  .strictObject({
    type: z.enum(AUTH_TYPES),
    token: nonEmpty.optional(),
    tokenFile: nonEmpty.optional(),
    username: nonEmpty.optional(),
    password: nonEmpty.optional(),
    passwordFile: nonEmpty.optional(),
    header: nonEmpty.optional(),
  })
  .superRefine((auth, ctx) => {
    for (const key of AUTH_NEEDS[auth.type]) {
      if (auth[key] !== undefined) continue;
      const viaFile = key === 'token' || key === 'password' ? ` (or ${key}File)` : '';
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `required for auth type ${auth.type}: set ${key}${viaFile}`,
      });
    }
  });

const restSchema = z.strictObject({
  baseUrl: httpUrl.optional(),
  auth: authSchema.optional(),
  timeoutMs: integer(1, 30_000),
  /** Off by default: an ERP without the archival endpoint would dead-letter every event. */
  archivalEvents: flag(false),
  resources: perResource(
    z.strictObject({
      url: nonEmpty.optional(),
      method: z.enum(['POST', 'PUT']).optional(),
      /** Where the resource's archival events go; default POST `{resource}/{_id}/archived`. */
      archived: z
        .strictObject({ url: nonEmpty.optional(), method: z.enum(['POST', 'PUT']).optional() })
        .optional(),
    }),
  ),
});

export const erpSchema = z
  .strictObject({
    adapter: z.enum(['file', 'rest']).default('file'),
    file: fileSchema.prefault({}),
    rest: restSchema.optional(),
  })
  .superRefine((erp, ctx) => {
    if (erp.adapter === 'rest' && erp.rest?.baseUrl === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['rest', 'baseUrl'],
        message: 'required when erp.adapter is rest: the URL the ERP takes records at',
      });
    }
  });

export const httpSchema = z.strictObject({
  enabled: flag(true),
  host: nonEmpty.default('127.0.0.1'),
  port: integer(0, 9464, 65_535),
  bodyLimitBytes: integer(1, 1_048_576),
  /** Headers and body of one request must arrive within this. */
  requestTimeoutMs: integer(100, 30_000),
  /** A request's headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs: integer(100, 5_000, 30_000),
  /**
   * Connections open at once; more are answered 503. Far above what the ERP and the probes
   * need, so that slow clients holding connections until headersTimeoutMs lock no one out.
   */
  maxConnections: integer(1, 1_024, 10_000),
  /** How many schedule intervals a pull may be late before /readyz says not ready. */
  readyToleratedIntervals: integer(1, 3),
  /** How often /readyz asks the platform and the ERP (at most; answers come from the last look). */
  readyCheckSeconds: integer(1, 30),
  /** A record version or queue job open longer than this makes /readyz say not ready. */
  readyStalledMinutes: integer(1, 60),
  token: nonEmpty.optional(),
  tokenFile: nonEmpty.optional(),
});
