import { z } from 'zod';
import type { InboundMappingSpec } from '../mapping/spec.js';
import { ERP_STAMP } from './stamp.js';
import { uniqueProblems, zodProblems, type Problem } from './problems.js';
import { merged, shapeOf, type Shape } from '../mapping/shape.js';

type Body = Record<string, unknown>;

/**
 * What the ERP may send as one inbox kind: the platform's entity schema plus the minimum our
 * push-back needs plus rules across fields; the fields they define, with the ERP's own
 * references, are all a message may carry. Each push-back kind's descriptor (src/pushback/kinds/)
 * holds its own: this mechanism knows no kind by itself.
 */
export interface InboxSchema {
  /** The platform's schema of the entity the kind writes; none where it writes no one entity. */
  entity?: z.ZodType;
  /** What our push-back needs at least; where there is no entity, the whole message. */
  minimum: z.ZodType;
  /** Rules across fields: cheap, they read a few. */
  rules?: (body: Body) => Problem[];
  /** Fields of the ERP's own that the kind's handler resolves before anything is sent. */
  erpFields?: z.ZodRawShape;
}

/**
 * How the kind's folder reads a CSV or XML file when `erp.file.inboxMapping.<kind>` does not
 * say: a mapping, or the article CSV's own layout (formats/csv/article.ts), which came before
 * the mapping language and is still read.
 */
export type DefaultLayout = InboundMappingSpec | typeof ARTICLE_CSV;
export const ARTICLE_CSV = 'articleCsv';

/** A CSV file whose header names the message's fields (`id;status`): most kinds' default. */
export const CSV_BY_FIELD_NAMES: InboundMappingSpec = {
  format: 'csv',
  columns: 'named',
  fields: {},
};

/** What the inbox needs of a push-back kind: its name (its folder, its route), its schema, its layout. */
export interface InboxKindSpec {
  readonly name: string;
  readonly inbox: InboxSchema;
  readonly inboxMapping: DefaultLayout;
  /**
   * The business key of what a checked message is about, in the ERP's own terms where it has
   * them (`patient:<customerId>`): the rows of one key in one file are one message (merge.ts).
   */
  businessKey(body: Body): string;
}

/** One inbox kind, ready to check messages with. */
export interface InboxKind {
  readonly name: string;
  readonly inboxMapping: DefaultLayout;
  /** InboxKindSpec.businessKey. */
  key(body: Body): string;
  /** Every field a message may carry, at any depth, and the JSON type of each. */
  shape(): Shape;
  /** What the rules across fields find in `body`. */
  ruleProblems(body: Body): Problem[];
  /** Every problem the schemas and rules find in the object `body`, by field path. */
  schemaProblems(body: Body): Problem[];
}

/** The kinds the ERP's formats make messages of (openTRANS, article CSV): `inboxKinds` needs them. */
export type FormatKind = 'orderStatus' | 'erpOrder' | 'article';

/** The folder of openTRANS answers: one file may say things of several kinds. */
export const OPENTRANS_FOLDER = 'opentrans';

/** A folder files are dropped in: one per inbox kind (named as the kind), and openTRANS's. */
export type InboxFolder = string;

/** The inbox kinds given, by name, in the order given (the folders' and the route's listing). */
export interface InboxKinds<Name extends string = string> {
  readonly names: readonly Name[];
  /** The kind of a name the caller's type vouches for. */
  kind(name: Name): InboxKind;
  /** The kind of a name from outside (a folder), if it is one. */
  find(name: string): InboxKind | undefined;
  readonly formats: Readonly<Record<FormatKind, InboxKind>>;
}

function problemsOf(schema: z.ZodType, body: unknown): Problem[] {
  const result = schema.safeParse(body);
  return result.success ? [] : zodProblems(result.error);
}

function shapeOfSchema(inbox: InboxSchema): Shape {
  const minimum = shapeOf(inbox.minimum);
  const contract = inbox.entity === undefined ? minimum : merged(shapeOf(inbox.entity), minimum);
  const erp = z.object({ ...inbox.erpFields, [ERP_STAMP]: z.string() });
  return merged(contract, shapeOf(erp));
}

function compiled(spec: InboxKindSpec): InboxKind {
  const { name, inbox, inboxMapping } = spec;
  const schemas = inbox.entity === undefined ? [inbox.minimum] : [inbox.entity, inbox.minimum];
  const ruleProblems = (body: Body): Problem[] => inbox.rules?.(body) ?? [];
  // Built at the first message of the kind, not at every start.
  let shape: Shape | undefined;
  return {
    name,
    inboxMapping,
    key: (body) => spec.businessKey(body),
    shape: () => (shape ??= shapeOfSchema(inbox)),
    ruleProblems,
    schemaProblems: (body) =>
      uniqueProblems([
        ...schemas.flatMap((schema) => problemsOf(schema, body)),
        ...ruleProblems(body),
      ]),
  };
}

type MissingFormats<Specs extends readonly InboxKindSpec[]> = Exclude<
  FormatKind,
  Specs[number]['name']
>;

/** The kinds `specs` name, checked at compile time to include every format's kinds. */
export function inboxKinds<const Specs extends readonly InboxKindSpec[]>(
  specs: Specs &
    ([MissingFormats<Specs>] extends [never] ? unknown : { missing: MissingFormats<Specs> }),
): InboxKinds<Specs[number]['name']> {
  const byName = new Map(specs.map((spec): [string, InboxKind] => [spec.name, compiled(spec)]));
  // Every name the types let through was given: a missing one is a bug, found at the start.
  const kind = (name: string): InboxKind => {
    const found = byName.get(name);
    if (found === undefined) throw new Error(`the inbox kinds given lack ${name}`);
    return found;
  };
  return {
    names: specs.map((spec): Specs[number]['name'] => spec.name),
    kind,
    find: (name) => byName.get(name),
    formats: {
      orderStatus: kind('orderStatus'),
      erpOrder: kind('erpOrder'),
      article: kind('article'),
    },
  };
}
