import { queryProblems } from '../../contract/index.js';
import type { ApiKeyEntry } from '../keys.js';
import { SimHttpError, badRequest } from '../httpError.js';
import type { Router } from '../routing.js';
import type { SimContext } from './context.js';
import { handleList } from './list.js';
import { handleRead } from './read.js';
import type { SimResponse } from './response.js';
import { handleWrite } from './write.js';

export interface ApiRequest {
  method: string;
  pathname: string;
  query: Readonly<Record<string, string>>;
  apiKey: string | undefined;
  body: unknown;
}

function unauthorized(message: string): SimHttpError {
  return new SimHttpError(401, 'unauthorized', message, [
    'service-api-key: send a key issued for your tenant',
  ]);
}

export function callerOf(keys: ReadonlyMap<string, ApiKeyEntry>, apiKey: string | undefined) {
  if (apiKey === undefined || apiKey === '') {
    throw unauthorized('the service-api-key header is missing');
  }
  const caller = keys.get(apiKey);
  if (!caller) throw unauthorized('the service-api-key is not known');
  return caller;
}

/** One API request, answered as the contract of the simulator's variant says. */
export async function handleApi(
  sim: SimContext,
  router: Router,
  caller: ApiKeyEntry,
  request: ApiRequest,
): Promise<SimResponse> {
  const match = router.match(request.method, request.pathname);
  if (match.kind === 'notFound') {
    throw new SimHttpError(
      404,
      'unknown_path',
      `${request.pathname} is not a path of variant ${sim.variant}`,
    );
  }
  if (match.kind === 'methodNotAllowed') {
    throw new SimHttpError(
      405,
      'method_not_allowed',
      `${request.method} is not available on ${request.pathname} in variant ${sim.variant}`,
      [`method: allowed are ${match.allow.join(', ')}`],
      {},
      { allow: match.allow.join(', ') },
    );
  }
  const { operation, id } = match;
  if (caller.resources !== undefined && !caller.resources.includes(operation.resource)) {
    throw new SimHttpError(403, 'forbidden', `this API key may not use ${operation.resource}`, [
      `service-api-key: the key has no right to ${operation.resource}; the platform operator grants it`,
    ]);
  }
  const problems = queryProblems(operation.detail.query, request.query);
  if (problems.length > 0) {
    throw badRequest(
      `the query of ${operation.method} ${operation.pathTemplate} breaks the contract`,
      problems,
    );
  }
  const ctx = { ...sim, caller };
  switch (operation.kind) {
    case 'list':
      return handleList(ctx, operation, request.query);
    case 'get':
    case 'download':
      return handleRead(ctx, operation, id, request.query);
    default:
      return handleWrite(ctx, operation, id, request.query, request.body);
  }
}
