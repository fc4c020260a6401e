import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkedPauseTarget, pauseTargets, pauseWork, resumeWork } from '../../operations/index.js';
import { EVERY_TARGET, pausesInForce, type PauseDirection } from '../../store/index.js';
import { ACT, field, sendPage, sendRefusal, VIEW, viewerOf } from '../context.js';
import type { ConsoleDeps } from '../deps.js';
import { html, type Html } from '../html.js';
import { notice, table } from '../layout.js';
import { canAct, operatorOf, type Viewer } from '../viewer.js';

const DIRECTIONS: readonly PauseDirection[] = ['pull', 'push'];
const isDirection = (value: string): value is PauseDirection =>
  (DIRECTIONS as readonly string[]).includes(value);

const named = (way: PauseDirection, target: string) =>
  target === EVERY_TARGET
    ? way === 'pull'
      ? 'every pull'
      : 'every platform write'
    : way === 'pull'
      ? `the pulls of ${target}`
      : `the platform writes of kind ${target}`;

function direction(deps: ConsoleDeps, viewer: Viewer, way: PauseDirection): Html {
  const inForce = pausesInForce(deps.store).filter((p) => p.direction === way);
  const rows = [EVERY_TARGET, ...pauseTargets(deps.config, way)].map((target) => {
    const pause = inForce.find((p) => p.target === target);
    const action = pause === undefined ? 'pause' : 'resume';
    const what = named(way, target);
    const form = canAct(viewer)
      ? html`<form class="inline" method="post" action="/console/pauses/${action}">
          <input type="hidden" name="direction" value="${way}" />
          <input type="hidden" name="target" value="${target === EVERY_TARGET ? '' : target}" />
          <button type="submit" class="${action === 'pause' ? 'quiet' : ''}">
            ${action === 'pause' ? 'Pause' : 'Resume'} ${what}
          </button>
        </form>`
      : '';
    return html`<tr>
      <th scope="row">${target === EVERY_TARGET ? 'all' : target}</th>
      <td>
        ${pause === undefined ? 'running' : html`<span class="warn">paused since ${pause.since}</span>`}
      </td>
      <td>${form}</td>
    </tr>`;
  });
  const title = way === 'pull' ? 'Pulls, by resource' : 'Platform writes, by kind';
  return html`<h2>${title}</h2>
    ${table([way === 'pull' ? 'Resource' : 'Kind', 'State', 'Action'], rows)}`;
}

function act(
  deps: ConsoleDeps,
  request: FastifyRequest<{ Params: { action: string } }>,
  reply: FastifyReply,
) {
  const { action } = request.params;
  const way = field(request.body, 'direction');
  const name = field(request.body, 'target');
  const back = html`<p><a href="/console/pauses">Back to the pauses</a></p>`;
  if (!isDirection(way) || (action !== 'pause' && action !== 'resume')) {
    return sendRefusal(request, reply, 400, 'Not a pause of the console.', back);
  }
  const checked = checkedPauseTarget(deps.config, way, name === '' ? undefined : name);
  if (!checked.ok) {
    return sendRefusal(request, reply, 400, checked.problem, back);
  }
  const by = operatorOf(viewerOf(request), request.socket.remoteAddress);
  const what = named(way, checked.target);
  let text: string;
  if (action === 'pause') {
    const paused = pauseWork(deps.store, way, checked.target, by);
    text = paused.changed ? `${what}: paused.` : `${what}: paused already, since ${paused.since}.`;
  } else {
    const resumed = resumeWork(deps.store, way, checked.target, by);
    text = resumed.resumed ? `${what}: resumed.` : `${what}: was not paused.`;
  }
  return sendPage(request, reply, 'Pauses', html`${notice(text, 'good')}${back}`);
}

/** Pause and resume the pulls of a resource or the platform writes of a kind, or all. */
export function pauseRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/pauses', VIEW, (request, reply) => {
    const viewer = viewerOf(request);
    const content = html`<p class="muted">
        A pause holds work back without a restart: nothing is lost, it goes on when resumed.
      </p>
      ${direction(deps, viewer, 'pull')}${direction(deps, viewer, 'push')}`;
    return sendPage(request, reply, 'Pauses', content);
  });
  app.post(
    '/pauses/:action',
    ACT,
    (request: FastifyRequest<{ Params: { action: string } }>, reply) => act(deps, request, reply),
  );
}
