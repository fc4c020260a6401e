import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  actOnDeadLetters,
  bulkTargets,
  deadLettersMatching,
  dropDeadLetter,
  retryDeadLetter,
  type DeadLetterAction,
} from '../../operations/index.js';
import { PermanentError } from '../../shared/errors.js';
import { maskedJob, subjectOfJob } from '../../store/index.js';
import { ACT, field, queryField, sendPage, sendRefusal, VIEW, viewerOf } from '../context.js';
import type { ConsoleDeps } from '../deps.js';
import { href, html, recordHref, type Html } from '../html.js';
import { jobButtons } from '../jobButtons.js';
import { notice, table } from '../layout.js';
import { canAct, operatorOf } from '../viewer.js';

/** Most dead letters the list shows; the count says how many there are. */
const LISTED = 50;

const ACTIONS: readonly DeadLetterAction[] = ['retry', 'drop'];

/** `1 dead letter`, `3 dead letters`. */
const letters = (count: number, what: string) => `${count} ${what}${count === 1 ? '' : 's'}`;
const isAction = (value: string): value is DeadLetterAction =>
  (ACTIONS as readonly string[]).includes(value);

const kindOf = (request: FastifyRequest, from: 'query' | 'body'): string | undefined => {
  const kind = from === 'query' ? queryField(request, 'kind') : field(request.body, 'kind');
  return kind === '' ? undefined : kind;
};

function filterForm(kinds: readonly string[], kind: string | undefined): Html {
  const options = kinds.map(
    (k) => html`<option value="${k}" ${k === kind ? html`selected` : ''}>${k}</option>`,
  );
  return html`<form method="get" action="/console/dead">
    <label for="kind">Job kind</label>
    <select id="kind" name="kind">
      <option value="">every kind</option>
      ${options}
    </select>
    <button type="submit" class="quiet">Filter</button>
  </form>`;
}

function listPage(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply) {
  const kind = kindOf(request, 'query');
  const every = deadLettersMatching(deps.store);
  const kinds = [...new Set(every.map((job) => job.kind))].sort();
  const matching = kind === undefined ? every : every.filter((job) => job.kind === kind);
  const viewer = viewerOf(request);
  const back = href('/console/dead', { kind });
  const rows = matching.slice(0, LISTED).map((listed) => {
    const job = maskedJob(deps.store, listed);
    const subject = subjectOfJob(deps.store, job.id);
    const record =
      subject === undefined
        ? job.entityKey
        : html`<a href="${recordHref(subject.resource, subject.id)}">${job.entityKey}</a>`;
    const actions = canAct(viewer) ? jobButtons(job.id, back) : '';
    return html`<tr>
      <td class="num">${job.id}</td>
      <td>${job.kind}</td>
      <td>${record}</td>
      <td class="num">${job.attempts}</td>
      <td class="what">${job.lastError ?? ''}</td>
      <td>${actions}</td>
    </tr>`;
  });
  const bulk =
    canAct(viewer) && matching.length > 0
      ? html`<p>
          ${ACTIONS.map(
            (action) =>
              html`<a href="${href('/console/dead/confirm', { action, kind })}"
                >${action === 'retry' ? 'Retry' : 'Drop'} all
                ${matching.length}${kind === undefined ? '' : ` of kind ${kind}`}…</a
              > `,
          )}
        </p>`
      : '';
  const count =
    matching.length === 0
      ? notice('No open dead letters.', 'good')
      : notice(
          `${letters(matching.length, 'open dead letter')}${matching.length > LISTED ? `, the first ${LISTED} listed` : ''}.`,
        );
  const listed =
    rows.length === 0
      ? ''
      : table(['Job', 'Kind', 'Record', 'Tries', 'Last error', 'Action'], rows);
  return sendPage(
    request,
    reply,
    'Dead letters',
    html`${filterForm(kinds, kind)}${count}${bulk}${listed}`,
  );
}

/** Before a bulk action: how many it takes, the cap, and one button to go on. */
function confirmPage(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply) {
  const action = queryField(request, 'action');
  if (!isAction(action)) return reply.redirect('/console/dead', 303);
  const kind = kindOf(request, 'query');
  const cap = deps.config.console.bulkLimit;
  const { ids, left, upTo } = bulkTargets(deps.store, { kind, cap });
  const of = kind === undefined ? '' : ` of kind ${kind}`;
  const beyond =
    left === 0
      ? ''
      : ` ${left} more ${left === 1 ? 'matches' : 'match'}; at most ${cap} ${cap === 1 ? 'is' : 'are'} taken at once (console.bulkLimit).`;
  const verb = action === 'retry' ? 'put back in the queue' : 'given up';
  const content = html`${notice(`${letters(ids.length, 'open dead letter')}${of} will be ${verb}.${beyond}`)}
    <form method="post" action="/console/dead/${action}">
      <input type="hidden" name="kind" value="${kind ?? ''}" />
      <input type="hidden" name="upTo" value="${upTo}" />
      <input type="hidden" name="count" value="${ids.length}" />
      <button type="submit" class="${action === 'drop' ? 'danger' : ''}">
        ${action === 'retry' ? 'Retry' : 'Drop'}
        ${ids.length === 1 ? 'this one' : `these ${ids.length}`}
      </button>
      <a href="${href('/console/dead', { kind })}">Cancel</a>
    </form>`;
  return sendPage(request, reply, `${action === 'retry' ? 'Retry' : 'Drop'} dead letters`, content);
}

function bulkAction(
  deps: ConsoleDeps,
  request: FastifyRequest<{ Params: { action: string } }>,
  reply: FastifyReply,
) {
  const { action } = request.params;
  const upTo = Number(field(request.body, 'upTo'));
  if (!isAction(action) || !Number.isSafeInteger(upTo)) {
    return sendRefusal(request, reply, 400, 'Not a bulk action of the console.');
  }
  const kind = kindOf(request, 'body');
  const scope = { kind, upTo, cap: deps.config.console.bulkLimit };
  const by = operatorOf(viewerOf(request), request.socket.remoteAddress);
  const detail = `console: ${action} all${kind === undefined ? '' : ` of kind ${kind}`}`;
  const outcome = actOnDeadLetters(deps.store, action, scope, by, detail);
  const plural = outcome.done.length !== 1;
  const verb =
    action === 'retry'
      ? `${plural ? 'are' : 'is'} pending again`
      : `${plural ? 'are' : 'is'} dropped`;
  const lines = [
    notice(`${letters(outcome.done.length, 'dead letter')} ${verb}.`, 'good'),
    ...outcome.refused.map((refused) =>
      notice(`Job ${refused.id} left as it is: ${refused.reason}`, 'bad'),
    ),
    outcome.left > 0
      ? notice(
          `${outcome.left} more ${outcome.left === 1 ? 'was' : 'were'} beyond the cap: act again to take ${outcome.left === 1 ? 'it' : 'them'}.`,
        )
      : '',
  ];
  return sendPage(
    request,
    reply,
    'Dead letters',
    html`${lines}
      <p><a href="${href('/console/dead', { kind })}">Back to the dead letters</a></p>`,
  );
}

/** A console address to go back to after an action; never another site. */
const backOf = (request: FastifyRequest): string => {
  const back = queryField(request, 'back');
  return /^\/console(?:[/?]|$)/.test(back) && !back.startsWith('//') ? back : '/console/dead';
};

function oneAction(
  deps: ConsoleDeps,
  request: FastifyRequest<{ Params: { id: string; action: string } }>,
  reply: FastifyReply,
) {
  const { action } = request.params;
  const id = Number(request.params.id);
  const back = html`<p><a href="${backOf(request)}">Back</a></p>`;
  if (!isAction(action) || !Number.isSafeInteger(id) || id <= 0) {
    return sendRefusal(request, reply, 400, 'Not an action of the console.', back);
  }
  const by = operatorOf(viewerOf(request), request.socket.remoteAddress);
  try {
    if (action === 'retry') retryDeadLetter(deps.store, id, by);
    else dropDeadLetter(deps.store, id, by);
  } catch (error) {
    if (!(error instanceof PermanentError)) throw error;
    return sendRefusal(request, reply, 409, error.message, back);
  }
  const text =
    action === 'retry'
      ? `Job ${id} is pending again, due now: it runs at the daemon's next queue pass.`
      : `Job ${id} dropped: its dead letter is resolved; the job stays for the record.`;
  return sendPage(request, reply, `Job ${id}`, html`${notice(text, 'good')}${back}`);
}

/** Dead letters: the list with its filter, retry and drop of one, or of all that match. */
export function deadLetterRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/dead', VIEW, (request, reply) => listPage(deps, request, reply));
  app.get('/dead/confirm', ACT, (request, reply) => confirmPage(deps, request, reply));
  app.post('/dead/:action', ACT, (request: FastifyRequest<{ Params: { action: string } }>, reply) =>
    bulkAction(deps, request, reply),
  );
  app.post(
    '/jobs/:id/:action',
    ACT,
    (request: FastifyRequest<{ Params: { id: string; action: string } }>, reply) =>
      oneAction(deps, request, reply),
  );
}
