import { z } from 'zod';
import { flag, httpUrl, integer, nonEmpty } from './fields.js';

const ERP_FILE_FORMATS = ['json', 'ndjson', 'csv', 'xml'] as const;
const AUTH_TYPES = ['bearer', 'basic', 'header'] as const;

const fileSchema = z.strictObject({
  outbox: nonEmpty.default('./erp/outbox'),
  inbox: nonEmpty.default('./erp/inbox'),
  format: z.enum(ERP_FILE_FORMATS).default('json'),
  doneMarker: flag(false),
  minFileAgeMs: integer(0, 2_000),
});

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
  token: nonEmpty.optional(),
  tokenFile: nonEmpty.optional(),
});
