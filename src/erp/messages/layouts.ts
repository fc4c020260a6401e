import { SetupError } from '../../shared/errors.js';
import {
  inboundMapping,
  pathText,
  type InboundMapping,
  type InboundMappingSpec,
  type MappingProblem,
  type ValueTables,
} from '../mapping/index.js';
import { ARTICLE_CSV, OPENTRANS_FOLDER, type InboxKinds } from './kinds.js';
import { nearestField } from '../../shared/nearest.js';

/** What the inbox's mappings are built from: `erp.file.inboxMapping`, the tables, the CSV file's defaults. */
export interface InboxMappingOptions {
  mapping: Readonly<Record<string, InboundMappingSpec>>;
  valueTables: ValueTables;
  /** Time zone of date-times read with a `date` pattern (`erp.file.csv.timeZone`). */
  timeZone: string;
  /** Where a mapping does not say (`erp.file.csv.decimalComma`). */
  decimalComma: boolean;
}

/** The config key the mappings are under, for problems a person can find. */
export const INBOX_MAPPING_KEY = 'erp.file.inboxMapping';

function unknownKind(name: string, kinds: InboxKinds): string {
  if (name === OPENTRANS_FOLDER) {
    return 'openTRANS answers are read as openTRANS (<inbox>/opentrans/); map another kind';
  }
  const near = nearestField(name, kinds.names);
  const guess = near === undefined ? '' : ` (did you mean ${near}?)`;
  return `no inbox kind ${name}${guess}; kinds: ${kinds.names.join(', ')}`;
}

function compileAll(
  options: InboxMappingOptions,
  kinds: InboxKinds,
): { mappings: Map<string, InboundMapping>; problems: MappingProblem[] } {
  const mappings = new Map<string, InboundMapping>();
  const problems: MappingProblem[] = [];
  const context = { ...options, tables: options.valueTables };
  for (const [name, spec] of Object.entries(options.mapping)) {
    const kind = kinds.find(name);
    if (kind === undefined) {
      problems.push({ path: [name], message: unknownKind(name, kinds) });
      continue;
    }
    const compiled = inboundMapping(name, kind.shape(), spec, context);
    if (compiled.ok) mappings.set(name, compiled.mapping);
    else problems.push(...compiled.problems.map((p) => ({ ...p, path: [name, ...p.path] })));
  }
  return { mappings, problems };
}

/**
 * Every problem of `erp.file.inboxMapping` against the kinds: unknown kinds, targets a kind's
 * message cannot have (with the nearest field), tables, date patterns; each as
 * `<config path>: <message>`, for `config check`.
 */
export function inboxMappingProblems(
  options: InboxMappingOptions,
  kinds: InboxKinds,
): { at: string; message: string }[] {
  return compileAll(options, kinds).problems.map((problem) => ({
    at: `${INBOX_MAPPING_KEY}.${pathText(problem.path)}`,
    message: problem.message,
  }));
}

/**
 * The mapping a kind's CSV and XML files are read with: the config's, else the kind's default
 * layout; undefined for a name that is no kind, and for the article CSV's own layout.
 */
export interface InboxMappings {
  get(kind: string): InboundMapping | undefined;
}

/** The kind's default layout, compiled at its first file; a descriptor's mistake is a bug. */
function defaultsOf(options: InboxMappingOptions, kinds: InboxKinds): InboxMappings {
  const compiled = new Map<string, InboundMapping | undefined>();
  const context = { ...options, tables: {} };
  const compile = (name: string): InboundMapping | undefined => {
    const kind = kinds.find(name);
    if (kind === undefined || kind.inboxMapping === ARTICLE_CSV) return undefined;
    const made = inboundMapping(name, kind.shape(), kind.inboxMapping, context);
    if (made.ok) return made.mapping;
    const lines = made.problems.map((p) => `${pathText(p.path)}: ${p.message}`);
    throw new Error(`the default layout of inbox kind ${name} is wrong: ${lines.join('; ')}`);
  };
  return {
    get(name) {
      if (!compiled.has(name)) compiled.set(name, compile(name));
      return compiled.get(name);
    },
  };
}

/**
 * The inbox's mappings by kind, ready to read files with: `erp.file.inboxMapping`, and each
 * kind without one its default layout. A config problem stops the start.
 */
export function inboxMappings(options: InboxMappingOptions, kinds: InboxKinds): InboxMappings {
  const { mappings, problems } = compileAll(options, kinds);
  if (problems.length === 0) {
    const defaults = defaultsOf(options, kinds);
    return { get: (kind) => mappings.get(kind) ?? defaults.get(kind) };
  }
  const lines = problems.map((p) => `${INBOX_MAPPING_KEY}.${pathText(p.path)}: ${p.message}`);
  throw new SetupError(
    `${INBOX_MAPPING_KEY} has ${lines.length} problem(s):\n  ${lines.join('\n  ')}`,
    lines,
    {
      code: 'CONFIG',
      hint: 'fix each listed problem, then run `homecare-sync config check`',
    },
  );
}
