import type { z } from 'zod';
import { nearestField } from '../shared/nearest.js';
import { formatPath } from './errors.js';
import type { Problem } from './problems.js';

/** Turns zod's issues into problems a person reads: the path, what was expected, what was found. */
export function issueProblems(issues: readonly z.core.$ZodIssue[], schema: z.ZodType): Problem[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeys(schema, issue.path);
      const valid = known.length > 0 ? `; valid keys here: ${known.join(', ')}` : '';
      return issue.keys.map((key) => {
        // The inbox's own "did you mean" (a few edits, case ignored), for a misspelt key.
        const nearest = nearestField(key, known);
        const guess = nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
        return { at: formatPath([...issue.path, key]), message: `unknown key${guess}${valid}` };
      });
    }
    return [{ at: formatPath(issue.path), message: issueMessage(issue) }];
  });
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const got = describe(issue.input);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input !== undefined) return `expected ${issue.expected}, got ${got}`;
      // A schema may say how to give a required key; zod's own wording starts "Invalid input".
      return issue.message.startsWith('Invalid input') ? 'required' : issue.message;
    case 'invalid_value':
      return `expected ${oneOf(issue.values.map((v) => String(v)))}, got ${got}`;
    case 'too_small':
      return issue.origin === 'string'
        ? 'must not be empty'
        : `must be at least ${String(issue.minimum)}, got ${got}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}, got ${got}`;
    default:
      return issue.message;
  }
}

function describe(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (typeof input === 'string') return JSON.stringify(input);
  if (Array.isArray(input)) return 'a list';
  if (input === null) return 'null';
  if (typeof input === 'number' || typeof input === 'boolean') return `${typeof input} ${input}`;
  return typeof input === 'object' ? 'a mapping' : typeof input;
}

/** `A, B or C`. */
function oneOf(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1) ?? ''}`;
}

/**
 * The keys the schema allows at `path`, for "unknown key" messages. Walks zod's own definition
 * objects (`_zod.def`), the documented way for tools to read a schema's structure.
 */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node: z.core.$ZodType | undefined = unwrap(schema);
  for (const segment of path) {
    if (node === undefined) return [];
    const def = node._zod.def;
    if (def.type === 'object') {
      node = unwrap((def as z.core.$ZodObjectDef).shape[String(segment)]);
    } else if (def.type === 'array') {
      node = unwrap((def as z.core.$ZodArrayDef).element);
    } else if (def.type === 'record') {
      node = unwrap((def as z.core.$ZodRecordDef).valueType);
    } else return [];
  }
  const def = node?._zod.def;
  return def?.type === 'object' ? Object.keys((def as z.core.$ZodObjectDef).shape) : [];
}

/** Sees through defaults, optionals and pipes (preprocess) to the schema that holds the keys. */
function unwrap(schema: z.core.$ZodType | undefined): z.core.$ZodType | undefined {
  let node = schema;
  for (let depth = 0; node !== undefined && depth < 10; depth += 1) {
    const def = node._zod.def;
    if ('innerType' in def) node = def.innerType as z.core.$ZodType;
    else if (def.type === 'pipe') {
      // A preprocess is a pipe from a transform: the keys are in what it hands on to.
      const pipe = def as z.core.$ZodPipeDef;
      node = pipe.in._zod.def.type === 'transform' ? pipe.out : pipe.in;
    } else return node;
  }
  return node;
}
