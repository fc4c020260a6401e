import { z } from 'zod';
import { parsePasswordHash } from '../shared/passwordHash.js';
import { flag, integer, nonEmpty } from './fields.js';

/**
 * `console`: the operator's web console on the HTTP endpoint (docs/readme/console.md). Off
 * unless enabled; clients on the machine itself only, unless `remote`; users by name, each with
 * a role and a password hash, and a bearer token per role for scripts and a break-glass login.
 */

/** `readOnly` sees everything the console shows; `operator` also acts and reveals personal values. */
export const CONSOLE_ROLES = ['operator', 'readOnly'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

const passwordHash = nonEmpty.superRefine((text, ctx) => {
  const parsed = parsePasswordHash(text);
  if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
});

const userSchema = z.strictObject({
  role: z.enum(CONSOLE_ROLES),
  passwordHash,
});

export const consoleSchema = z
  .strictObject({
    enabled: flag(false),
    /** Clients from other machines (an ingress, a browser elsewhere); loopback only unless true. */
    remote: flag(false),
    users: z
      .record(z.string().regex(USER_NAME), userSchema, {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? 'a user name is letters, digits and . _ @ -, at most 64, first a letter or digit'
            : undefined,
      })
      .prefault({}),
    operatorToken: nonEmpty.optional(),
    operatorTokenFile: nonEmpty.optional(),
    readOnlyToken: nonEmpty.optional(),
    readOnlyTokenFile: nonEmpty.optional(),
    /** How long a login lasts. */
    sessionMinutes: integer(1, 480, 10_080),
    /** Most dead letters one bulk retry or drop takes. */
    bulkLimit: integer(1, 500, 10_000),
    /** Failed logins from one address, or for one user, within loginWindowMinutes. */
    loginAttempts: integer(1, 5, 100),
    loginWindowMinutes: integer(1, 15, 1_440),
  })
  .superRefine((settings, ctx) => {
    const ways =
      Object.keys(settings.users).length > 0 ||
      settings.operatorToken !== undefined ||
      settings.readOnlyToken !== undefined;
    if (settings.enabled && !ways) {
      ctx.addIssue({
        code: 'custom',
        path: ['users'],
        message:
          'no one could log in: add a user (name: { role: operator, passwordHash: <from homecare-sync console password> }) or set operatorToken (or operatorTokenFile)',
      });
    }
  });

export type ConsoleConfig = z.output<typeof consoleSchema>;
