import { statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { CONFIG_FILE_MAX_BYTES, readBounded, type BoundedRead } from './boundedRead.js';
import { ConfigError } from './errors.js';
import type { Env } from './substitute.js';

/**
 * A warning when every user of the machine may read `path` (mode o+r) and it `holds` a secret:
 * asked only for a secret file, or a config file with a secret written in it, so a config that
 * only names `${VAR}`s and `<key>File`s (a Kubernetes ConfigMap, mounted 0644) is left alone.
 */
export function worldReadableWarning(
  path: string,
  what: string,
  holds: string,
  fix = '',
): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (stat === undefined || (stat.mode & 0o004) === 0) return undefined;
  const mode = (stat.mode & 0o777).toString(8);
  return `${what} ${path} may be read by every user on this machine (mode ${mode}) and holds ${holds}: chmod o-r ${path}${fix}`;
}

export const CONFIG_ENV_VAR = 'HOMECARE_SYNC_CONFIG';
export const DEFAULT_CONFIG_PATH = './config/homecare-sync.yaml';

/** Where the config file is and how we got there, for messages that say what to change. */
export interface ConfigLocation {
  path: string;
  from: 'option' | 'environment' | 'default';
}

/** `-c/--config`, else `$HOMECARE_SYNC_CONFIG`, else `./config/homecare-sync.yaml`; from `cwd`. */
export function resolveConfigPath(
  option: string | undefined,
  env: Env,
  cwd: string,
): ConfigLocation {
  const fromEnv = env[CONFIG_ENV_VAR];
  if (option !== undefined && option !== '') return { path: resolve(cwd, option), from: 'option' };
  if (fromEnv !== undefined && fromEnv !== '')
    return { path: resolve(cwd, fromEnv), from: 'environment' };
  return { path: resolve(cwd, DEFAULT_CONFIG_PATH), from: 'default' };
}

/** The path as the operator would write it: relative to `cwd` when inside it. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel !== '' && !rel.startsWith('..') ? rel : path;
}

const HOW_CHOSEN: Record<ConfigLocation['from'], string> = {
  option: 'given with -c/--config',
  environment: `from ${CONFIG_ENV_VAR}`,
  default: `the default; pass -c <file> or set ${CONFIG_ENV_VAR}`,
};

/** Reads and parses the YAML file; throws ConfigError for a missing file, a directory, bad YAML. */
export function readConfigTree(location: ConfigLocation, shown: string): Record<string, unknown> {
  const fail = (...problems: string[]): never => {
    throw new ConfigError(shown, problems);
  };
  const text = readText(location, shown);
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0) fail(...yamlProblems(document.errors, text, shown));
  const tree = toTree(document, shown);
  if (tree === null || tree === undefined) {
    fail(`${shown}: the file is empty; start from config/example.yaml`);
  }
  if (typeof tree !== 'object' || Array.isArray(tree)) {
    fail(`${shown}: expected a mapping of sections (platform:, storage:, ...) at the top level`);
  }
  return tree as Record<string, unknown>;
}

/**
 * The document as plain values. Aliases (`*name`) that expand to more than the yaml package's
 * limit are how a "billion laughs" file exhausts memory; they end in one clear problem.
 */
function toTree(document: ReturnType<typeof parseDocument>, shown: string): unknown {
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const why =
      error instanceof ReferenceError && /alias/i.test(error.message)
        ? `its aliases (*name) expand to too much (more than ${MAX_ALIAS_COUNT} uses): write the values out, or use fewer aliases`
        : `cannot be read as YAML: ${(error as Error).message}`;
    throw new ConfigError(shown, [`${shown}: ${why}`]);
  }
}

const MAX_ALIAS_COUNT = 100;

interface YamlIssue {
  message: string;
  linePos?: [{ line: number; col: number }] | [{ line: number; col: number }, unknown];
}

/** One problem per line: the yaml package often reports a single slip as several errors. */
function yamlProblems(errors: readonly YamlIssue[], text: string, shown: string): string[] {
  const lines = text.split('\n');
  const firstPerLine = errors.filter(
    (error, i) =>
      error.linePos === undefined ||
      errors.findIndex((other) => other.linePos?.[0].line === error.linePos?.[0].line) === i,
  );
  return firstPerLine.map((error) => {
    const position = error.linePos?.[0];
    const what = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    if (position === undefined) return `${shown}: invalid YAML: ${what}`;
    const line = lines[position.line - 1] ?? '';
    const hint = /\$\{/.test(line) ? '; a ${VAR} inside { } or [ ] must be quoted: "${VAR}"' : '';
    return `${shown} line ${position.line}, column ${position.col}: invalid YAML: ${what}${hint}`;
  });
}

/** The config file's bytes, or the ConfigError that says why they cannot be had. */
function readConfigBytes(location: ConfigLocation, shown: string): BoundedRead {
  try {
    return readBounded(location.path, CONFIG_FILE_MAX_BYTES);
  } catch (error) {
    const problem =
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `the file does not exist (${HOW_CHOSEN[location.from]})`
        : `cannot read the file: ${(error as Error).message}`;
    throw new ConfigError(shown, [`${shown}: ${problem}`]);
  }
}

/**
 * The file's text, read with a bound (CONFIG_FILE_MAX_BYTES): a config is a few KiB, and a
 * FIFO or device given by mistake must end in a message, not a hang or a full memory.
 */
function readText(location: ConfigLocation, shown: string): string {
  const read = readConfigBytes(location, shown);
  if (read.ok) return read.bytes.toString('utf8');
  const problem = read.reason.startsWith('that is a directory')
    ? 'that is a directory; name the YAML file in it'
    : `${read.reason}; name the YAML config file`;
  throw new ConfigError(shown, [`${shown}: ${problem}`]);
}
