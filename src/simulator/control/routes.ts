import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { isResourceName, isStatusControlled, type ResourceName } from '../../contract/index.js';
import { faultSpecSchema } from '../faults.js';
import { SimHttpError, badRequest, notFound } from '../httpError.js';
import { auditInMetadata, stampChanged, stampCreated } from '../stamp.js';
import type { SimulatorState } from '../state.js';

/** Who a control-API change is made by: a platform user, never an API client. */
export const PLATFORM_USER = 'platform-user';

const createBody = z.strictObject({
  tenant: z.string().default('demo'),
  by: z.string().default(PLATFORM_USER),
  record: z.record(z.string(), z.unknown()),
});
const patchBody = z.strictObject({
  tenant: z.string().default('demo'),
  by: z.string().default(PLATFORM_USER),
  changes: z.record(z.string(), z.unknown()),
});
const clockBody = z.union([
  z.strictObject({ offsetMs: z.number() }),
  z.strictObject({ set: z.iso.datetime({ offset: true }) }),
]);

function parsed<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
  throw badRequest(`the body of ${what} is not valid`, problems);
}

function resourceOf(name: string): ResourceName {
  if (!isResourceName(name)) throw notFound(`${name} is not a resource of the platform`);
  return name;
}

function tokenMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function registerRecordRoutes(app: FastifyInstance, state: SimulatorState): void {
  app.post<{ Params: { resource: string } }>('/records/:resource', (request, reply) => {
    const resource = resourceOf(request.params.resource);
    const body = parsed(createBody, request.body, 'POST /__sim/records');
    const id = typeof body.record._id === 'string' ? body.record._id : undefined;
    const stamped = stampCreated(body.record, state.clock.now(), body.by, id);
    const record = resource === 'attachment' ? auditInMetadata(stamped) : stamped;
    state.store.put(body.tenant, resource, record, { changedByClient: null, acknowledged: false });
    return reply.code(201).send(record);
  });
  app.patch<{ Params: { resource: string; id: string } }>(
    '/records/:resource/:id',
    (request, reply) => {
      const resource = resourceOf(request.params.resource);
      const body = parsed(patchBody, request.body, 'PATCH /__sim/records');
      const stored = state.store.get(body.tenant, resource, request.params.id);
      if (!stored) throw notFound(`no ${resource} ${request.params.id} in tenant ${body.tenant}`);
      const merged = { ...stored.record, ...body.changes };
      const stamped = stampChanged(merged, stored.record, state.clock.now(), body.by);
      const record = resource === 'attachment' ? auditInMetadata(stamped, stored.record) : stamped;
      // A platform user setting the status puts an order back in the hands of the status filters.
      const statusSet = isStatusControlled(resource) && 'status' in body.changes;
      state.store.put(body.tenant, resource, record, {
        changedByClient: null,
        acknowledged: stored.acknowledged && !statusSet,
      });
      return reply.send(record);
    },
  );
  app.get<{ Params: { resource: string; id: string }; Querystring: { tenant?: string } }>(
    '/records/:resource/:id',
    (request, reply) => {
      const resource = resourceOf(request.params.resource);
      const tenant = request.query.tenant ?? 'demo';
      const stored = state.store.get(tenant, resource, request.params.id);
      if (!stored) throw notFound(`no ${resource} ${request.params.id} in tenant ${tenant}`);
      return reply.send(stored.record);
    },
  );
}

function registerToolRoutes(app: FastifyInstance, state: SimulatorState): void {
  app.get('/requests', (_request, reply) => reply.send(state.requests.list()));
  app.delete('/requests', (_request, reply) => {
    state.requests.clear();
    return reply.code(204).send();
  });
  app.get('/faults', (_request, reply) => reply.send(state.faults.list()));
  app.post('/faults', (request, reply) => {
    const spec = parsed(faultSpecSchema, request.body, 'POST /__sim/faults');
    return reply.code(201).send(state.faults.add(spec));
  });
  app.delete('/faults', (_request, reply) => {
    state.faults.clear();
    return reply.code(204).send();
  });
  app.delete<{ Params: { id: string } }>('/faults/:id', (request, reply) => {
    if (!state.faults.remove(request.params.id)) throw notFound(`no fault ${request.params.id}`);
    return reply.code(204).send();
  });
  app.get('/clock', (_request, reply) => reply.send({ now: state.clock.now().toISOString() }));
  app.post('/clock', (request, reply) => {
    const body = parsed(clockBody, request.body, 'POST /__sim/clock');
    if ('offsetMs' in body) state.clock.move(body.offsetMs);
    else state.clock.set(new Date(body.set));
    return reply.send({ now: state.clock.now().toISOString() });
  });
  app.post('/reset', (_request, reply) => {
    state.faults.clear();
    state.requests.clear();
    state.reseed();
    return reply.send({ now: state.clock.now().toISOString() });
  });
}

/** The control API under /__sim: test and demo tooling, guarded by `sim-control-token`. */
export function registerControlRoutes(
  app: FastifyInstance,
  state: SimulatorState,
  controlToken: string,
): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (tokenMatches(controlToken, request.headers['sim-control-token'])) return done();
    done(
      new SimHttpError(401, 'unauthorized', 'the sim-control-token header is missing or wrong', [
        'sim-control-token: send the control token the simulator was started with',
      ]),
    );
  });
  registerRecordRoutes(app, state);
  registerToolRoutes(app, state);
}
