import { z } from 'zod';
import { sameJson } from '../shared/canonicalJson.js';
import type { ResourceName } from './resources.js';
import { entitySchema, unwrapped } from './schemas/index.js';
import { NESTED_STAMP_FIELDS, STAMP_FIELDS } from './stamps.js';

type Fields = Readonly<Record<string, unknown>>;

const STAMPS: ReadonlySet<string> = new Set(STAMP_FIELDS);
const NESTED_STAMPS: ReadonlySet<string> = new Set(NESTED_STAMP_FIELDS);

/** Per resource: its top-level fields the contract declares objects, each with its field names. */
const declaredObjects = new Map<ResourceName, ReadonlyMap<string, ReadonlySet<string>>>();

function objectFieldsOf(resource: ResourceName): ReadonlyMap<string, ReadonlySet<string>> {
  const known = declaredObjects.get(resource);
  if (known !== undefined) return known;
  const objects = new Map<string, ReadonlySet<string>>();
  const entity = unwrapped(entitySchema(resource));
  if (entity instanceof z.ZodObject) {
    for (const [name, field] of Object.entries<z.ZodType>(entity.shape)) {
      const inner = unwrapped(field);
      if (inner instanceof z.ZodObject) objects.set(name, new Set(Object.keys(inner.shape)));
    }
  }
  declaredObjects.set(resource, objects);
  return objects;
}

const isObject = (value: unknown): value is Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const valueOf = (fields: Fields, key: string): unknown =>
  Object.hasOwn(fields, key) ? fields[key] : undefined;

/** Each key of `after`, then each key only `before` has. */
function eachKey(before: Fields, after: Fields, visit: (key: string) => void): void {
  for (const key of Object.keys(after)) visit(key);
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) visit(key);
}

/** `field.key` for each key changed inside an object field; the field alone for a key not declared. */
function changedInside(
  field: string,
  before: Fields,
  after: Fields,
  declared: ReadonlySet<string>,
) {
  const inside: string[] = [];
  let undeclared = false;
  eachKey(before, after, (key) => {
    if (NESTED_STAMPS.has(key)) return;
    if (sameJson(valueOf(before, key), valueOf(after, key), NESTED_STAMPS)) return;
    if (declared.has(key)) inside.push(`${field}.${key}`);
    else undeclared = true;
  });
  return undeclared ? [field] : inside;
}

/**
 * The names of the fields a version of a record changed against the one before it, sorted, and
 * never their values: what `trace` shows of a pulled version, kept with it after the record's
 * body has moved on. A field the contract declares an object is named by the fields changed in
 * it (`deliveryAddress.street`); an object of keys the contract does not name (a patient's
 * `additionalAttributes`, whose keys may be data) is named whole, as a list is
 * (`orderedArticleLines`). Stamps say who changed a record and when, not what (stamps.ts): a
 * version that changed only them names nothing. Values compare as their canonical JSON does, so
 * key order and spacing are no change; each value is walked once.
 */
export function changedFields(resource: ResourceName, before: Fields, after: Fields): string[] {
  const objects = objectFieldsOf(resource);
  const changed: string[] = [];
  eachKey(before, after, (field) => {
    if (STAMPS.has(field)) return;
    const [was, is] = [valueOf(before, field), valueOf(after, field)];
    const declared = objects.get(field);
    if (declared !== undefined && isObject(was) && isObject(is)) {
      changed.push(...changedInside(field, was, is, declared));
    } else if (!sameJson(was, is, NESTED_STAMPS)) changed.push(field);
  });
  return changed.sort();
}
