import { resolve } from 'node:path';
import type { InboxKinds } from '../erp/messages/kinds.js';
import { inboxMappingProblems, type InboxMappingOptions } from '../erp/messages/layouts.js';
import { DEFAULT_CSV_OPTIONS } from '../erp/formats/index.js';
import { valueAt, withoutUndefined } from '../shared/objects.js';
import { csvSchema } from './erpSchema.js';
import { inboxMappingsSchema, valueTablesSchema } from '../erp/mapping/spec.js';
import { CONFIG_FILE_MAX_BYTES, readBounded } from './boundedRead.js';
import { ConfigError } from './errors.js';
import { issueProblems } from './issues.js';
import { folderProblems } from './paths.js';
import { problemText, withoutRepeats, type Problem } from './problems.js';
import { configSchema, type Config } from './schema.js';
import { secretShapeProblems } from './secretShape.js';
import { weakApiKeyWarning, weakHttpTokenProblems } from './secretStrength.js';
import { inlineSecrets, readSecretFiles, secretFiles, skipSecrets } from './secrets.js';
import { displayPath, readConfigTree, resolveConfigPath, worldReadableWarning } from './source.js';
import { substituteEnv, type Env } from './substitute.js';

export interface LoadConfigOptions {
  /** The `-c/--config` option, if given. */
  path?: string | undefined;
  env: Env;
  cwd: string;
  /** `skip`: the secrets are neither substituted nor read (see skipSecrets); default `read`. */
  secrets?: 'read' | 'skip';
  /**
   * `config check`: also report each configured folder this user can neither use nor create
   * (folderProblems). Off by default: a container's config is often loaded elsewhere (the tests,
   * a build machine) where `/data` is not mounted.
   */
  checkFolders?: boolean;
  /**
   * The push-back kinds (the composition root's): given, `erp.file.inboxMapping` is checked
   * against them here, so `config check` lists its problems with the rest.
   */
  inboxKinds?: InboxKinds;
}

export interface LoadedConfig {
  config: Config;
  /** The absolute path of the file the config came from. */
  source: string;
  /**
   * Not wrong enough to refuse, but to tell: a secret file, or a config file with a secret
   * written in it, that every user may read; a weak platform API key.
   */
  warnings: string[];
}

/**
 * Reads, substitutes, validates and fills in defaults. Collects every problem of every stage
 * (environment, secret files, secret strength, schema) and throws them together as one ConfigError.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const location = resolveConfigPath(options.path, options.env, options.cwd);
  const shown = displayPath(location.path, options.cwd);
  const raw = readConfigTree(location, shown);
  // Read before skipSecrets puts its stand-in where each secret was: the stand-in is not a
  // `${VAR}`, and would make every config look as if it held its secrets inline.
  const inline = inlineSecrets(raw);
  if (options.secrets === 'skip') skipSecrets(raw);

  const substituted = substituteEnv(raw, options.env);
  const secretProblems = readSecretFiles(substituted.value, options.cwd);
  const secretsRead = [...substituted.problems, ...secretProblems];
  const shapes = withoutRepeats(secretShapeProblems(substituted.value), secretsRead);
  const early = [
    ...secretsRead,
    ...shapes,
    ...withoutRepeats(weakHttpTokenProblems(substituted.value), [...secretsRead, ...shapes]),
  ];

  const parsed = configSchema.safeParse(substituted.value, { reportInput: true });
  const schemaProblems = parsed.success ? [] : issueProblems(parsed.error.issues, configSchema);
  const fileProblems = parsed.success
    ? [
        ...caFileProblems(parsed.data, options.cwd),
        ...(options.checkFolders === true ? folderProblems(parsed.data, options.cwd) : []),
      ]
    : [];
  const mappingProblems =
    options.inboxKinds === undefined ? [] : inboxProblems(substituted.value, options.inboxKinds);
  const problems = [
    ...early,
    ...withoutRepeats(schemaProblems, early),
    ...fileProblems,
    ...withoutRepeats(mappingProblems, [...early, ...schemaProblems]),
  ];

  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(shown, problems.map(problemText));
  }
  const warnings = [
    inline.length > 0
      ? worldReadableWarning(
          location.path,
          'the config file',
          `${inline.join(', ')} written in it`,
          `, or give ${inline.length > 1 ? 'them' : 'it'} as \${VAR} or in a <key>File`,
        )
      : undefined,
    ...secretFiles(substituted.value, options.cwd).map(({ at, path }) =>
      worldReadableWarning(path, at, 'a secret'),
    ),
    weakApiKeyWarning(parsed.data.platform.apiKey),
  ].filter((warning): warning is string => warning !== undefined);
  return { config: parsed.data, source: location.path, warnings };
}

/**
 * `erp.file.inboxMapping` against the kinds' messages (erp/messages/layouts.ts). Read from its
 * own keys, so that its problems are listed even when other keys have some.
 */
function inboxProblems(raw: unknown, kinds: InboxKinds): Problem[] {
  const file = valueAt(raw, 'erp.file');
  const mapping = inboxMappingsSchema.safeParse(valueAt(file, 'inboxMapping'));
  const tables = valueTablesSchema.safeParse(valueAt(file, 'valueTables'));
  const csv = csvSchema.safeParse(valueAt(file, 'csv') ?? {});
  if (!mapping.success || !tables.success) return [];
  return inboxMappingProblems(
    {
      mapping: withoutUndefined(mapping.data) as InboxMappingOptions['mapping'],
      valueTables: tables.data,
      // The time zone changes no problem of the mapping; the decimal separator checks its
      // number patterns (a CSV option with a problem of its own is listed by the schema).
      timeZone: DEFAULT_CSV_OPTIONS.timeZone,
      decimalComma: csv.success ? csv.data.decimalComma : false,
    },
    kinds,
  );
}

/**
 * `platform.caFile` is read whole at start: a regular file of at most CONFIG_FILE_MAX_BYTES,
 * so a FIFO or device given by mistake is named here rather than hanging the start.
 */
function caFileProblems(config: Config, cwd: string): Problem[] {
  const { caFile } = config.platform;
  if (caFile === undefined) return [];
  const refused = (why: string) => [
    { at: 'platform.caFile', message: `${caFile} ${why}; give the path of a PEM file` },
  ];
  try {
    const read = readBounded(resolve(cwd, caFile), CONFIG_FILE_MAX_BYTES);
    return read.ok ? [] : refused(`cannot be used: ${read.reason}`);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    return refused(missing ? 'is not a file' : `cannot be read: ${(error as Error).message}`);
  }
}
