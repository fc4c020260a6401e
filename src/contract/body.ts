import { valueAt } from '../shared/objects.js';

/** Rules on a request body the spec states; the zod schema of the entity does the types. */
export interface BodyRule {
  required?: readonly string[];
  /**
   * Fields that must not be sent. `_id` on create only for product groups and devices, the two
   * the text refuses it for; elsewhere it is "generated at creation" and a supplied one is
   * replaced, not refused.
   */
  forbidden?: readonly string[];
  /** Arrays that need at least one entry. */
  nonEmpty?: readonly string[];
  /** Booleans that must not be true. */
  notTrue?: readonly string[];
  /** Fields a schema marks required: they must be there, though they may be empty. */
  present?: readonly string[];
  /** The only fields the body may carry; any other is refused, never dropped silently. */
  only?: readonly string[];
}

/**
 * Every way `body` breaks the spec's stated rules for one operation, each naming the field.
 * Types are the entity schema's business; this checks presence, absence and emptiness.
 */
export function bodyProblems(rule: BodyRule | undefined, body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return ['the request body must be a JSON object'];
  }
  const record = body as Record<string, unknown>;
  const problems: string[] = [];
  for (const field of rule?.required ?? []) {
    const value = valueAt(record, field);
    if (value === undefined || value === null || value === '')
      problems.push(`${field} is required`);
  }
  for (const field of rule?.forbidden ?? []) {
    if (valueAt(record, field) !== undefined) problems.push(`${field} must not be supplied`);
  }
  for (const field of rule?.nonEmpty ?? []) {
    const value = valueAt(record, field);
    if (value !== undefined && (!Array.isArray(value) || value.length === 0)) {
      problems.push(`${field} needs at least one entry`);
    }
  }
  for (const field of rule?.notTrue ?? []) {
    if (valueAt(record, field) === true) problems.push(`${field} must not be true`);
  }
  for (const field of rule?.present ?? []) {
    if (rule?.required?.includes(field)) continue;
    if (valueAt(record, field) === undefined) problems.push(`${field} is required`);
  }
  if (rule?.only) {
    const allowed = rule.only;
    for (const field of Object.keys(record).filter((f) => !allowed.includes(f))) {
      problems.push(`${field} cannot be changed here; only ${allowed.join(', ')} may be sent`);
    }
  }
  return problems;
}
