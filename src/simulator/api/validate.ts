import type { BoundOperation } from '../../contract/index.js';
import { bodyProblems } from '../../contract/index.js';
import { attachmentCreateBody, entitySchema, issueProblems } from '../../contract/schemas/index.js';
import { badRequest } from '../httpError.js';

/**
 * A write body as the contract demands it: the operation's presence rules, then the entity's
 * types. Returns the body as an object, or refuses with every problem by field path.
 */
export function validBody(operation: BoundOperation, body: unknown): Record<string, unknown> {
  const problems = bodyProblems(operation.detail.body, body);
  if (problems.length === 0) {
    const schema =
      operation.resource === 'attachment' && operation.kind === 'create'
        ? attachmentCreateBody
        : entitySchema(operation.resource);
    const parsed = schema.safeParse(body);
    if (!parsed.success) problems.push(...issueProblems(parsed.error));
  }
  if (problems.length > 0) {
    const what = `${operation.method} ${operation.pathTemplate}`;
    throw badRequest(`the body of ${what} breaks the contract`, problems);
  }
  return body as Record<string, unknown>;
}
