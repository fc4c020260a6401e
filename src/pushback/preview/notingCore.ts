import type { OperationKind, ResourceName } from '../../contract/index.js';
import { prepare, type PlatformCore, type PlatformRecord } from '../../platform/index.js';
import { PermanentError } from '../../shared/errors.js';
import { getMirror, type Store } from '../../store/index.js';
import type { Body } from '../payload.js';

/** A write a handler made against the noting core, as the client would send it. */
export interface NotedWrite {
  resource: ResourceName;
  kind: OperationKind;
  /** The `{id}` of an item path (an `_id`, a salesId or customerNumber where the variant says). */
  id?: string;
  method: string;
  path: string;
  body: Body;
}

/** A noted write, or the contract's refusal of it: the client's own check (`prepare`) refused it. */
export type NotedRequest = NotedWrite | { refused: string; body: Body };

const WRITES: readonly OperationKind[] = ['create', 'replace', 'update'];

/**
 * The platform as a preview sees it: reads go to `reads` (the mirror, or in a dry run the
 * platform itself), writes are checked against the contract as the client checks them, noted
 * in `noted`, and answered with the record they would make (the mirror's, with the body over
 * it), so that the handler goes on as after a real answer. Nothing is sent.
 */
export function notingCore(reads: PlatformCore, store: Store, noted: NotedRequest[]): PlatformCore {
  const statuses = new WeakMap<PlatformRecord, number>();
  function written(
    resource: ResourceName,
    kind: OperationKind,
    id: string | undefined,
    body: Body,
  ) {
    const before = id === undefined ? undefined : getMirror(store, resource, id)?.record;
    const answer = { ...before, ...body, _id: before?._id ?? id ?? `(new ${resource})` };
    statuses.set(answer, kind === 'create' ? 201 : 200);
    return answer;
  }
  async function record(
    resource: ResourceName,
    kind: OperationKind,
    request: Parameters<PlatformCore['record']>[2] = {},
  ): Promise<PlatformRecord> {
    if (!WRITES.includes(kind)) return reads.record(resource, kind, request);
    const body = (request.body ?? {}) as Body;
    try {
      const { method, path } = prepare(reads.contract, '', resource, kind, request);
      const { id } = request;
      noted.push({ resource, kind, ...(id === undefined ? {} : { id }), method, path, body });
    } catch (error) {
      if (error instanceof PermanentError) noted.push({ refused: error.message, body });
      throw error;
    }
    return Promise.resolve(written(resource, kind, request.id, body));
  }
  return {
    ...reads,
    record,
    send: (resource, kind, request) =>
      WRITES.includes(kind) ? record(resource, kind, request) : reads.send(resource, kind, request),
    answerStatus: (answer) => statuses.get(answer) ?? reads.answerStatus(answer),
  };
}
