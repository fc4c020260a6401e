import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { RESOURCE_NAMES, type ResourceName } from '../contract/index.js';
import { SetupError } from '../shared/errors.js';

/** One API key the simulator accepts: its tenant, the client it names, and its rights. */
export interface ApiKeyEntry {
  key: string;
  tenant: string;
  client: string;
  attachments: boolean;
  /** The resources the key may use (read and write); every one when absent. */
  resources?: readonly ResourceName[];
}

export const DEFAULT_KEYS: readonly ApiKeyEntry[] = [
  { key: 'demo-key', tenant: 'demo', client: 'erp-1', attachments: true },
  { key: 'demo-key-2', tenant: 'demo', client: 'erp-2', attachments: false },
  { key: 'other-tenant-key', tenant: 'other', client: 'erp-other', attachments: false },
];

const keyFileSchema = z
  .array(
    z.strictObject({
      key: z.string().min(1),
      tenant: z.string().min(1),
      client: z.string().min(1),
      attachments: z.boolean().default(false),
      resources: z
        .array(
          z.enum(RESOURCE_NAMES as [ResourceName, ...ResourceName[]], {
            error: (issue) => `"${String(issue.input)}" is not a resource of the platform`,
          }),
        )
        .optional(),
    }),
  )
  .min(1);

/** Reads a `--keys` YAML file: a list of `{key, tenant, client, attachments, resources}`. */
export async function readKeysFile(path: string): Promise<ApiKeyEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    throw new SetupError(`cannot read the simulator keys file ${path}`, [], {
      cause,
      hint: 'pass an existing YAML file to --keys',
    });
  }
  const parsed = keyFileSchema.safeParse(parse(text));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${path}: [${i.path.join('.')}] ${i.message}`);
    throw new SetupError(`the simulator keys file ${path} is not valid`, problems, {
      hint: 'write a YAML list of {key, tenant, client, attachments, resources}',
    });
  }
  return parsed.data.map(({ resources, ...entry }) =>
    resources === undefined ? entry : { ...entry, resources },
  );
}

/** The tenants in the order their keys first name them: the order decides each one's seed. */
export function tenantsOf(keys: readonly ApiKeyEntry[]): string[] {
  return [...new Set(keys.map((k) => k.tenant))];
}
