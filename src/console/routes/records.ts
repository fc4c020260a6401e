import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isResourceName } from '../../contract/index.js';
import { messageLabel, type PersonalValues } from '../../log/index.js';
import { recordStory, redeliverRecord, type TracedRecord } from '../../operations/index.js';
import { PermanentError } from '../../shared/errors.js';
import { getMirror } from '../../store/index.js';
import {
  KEY_KINDS,
  MIN_PREFIX_CHARS,
  searchKey,
  type KeyKind,
  type KeyMatch,
  type TraceEvent,
  type TraceEventKind,
} from '../../trace/index.js';
import { ACT, queryField, sendPage, VIEW, viewerOf } from '../context.js';
import type { ConsoleDeps } from '../deps.js';
import { html, recordHref, type Html } from '../html.js';
import { jobButtons } from '../jobButtons.js';
import { notice, table } from '../layout.js';
import { canAct, operatorOf, type Viewer } from '../viewer.js';

/** Most records a search lists. */
const LISTED = 50;
/** Most events a record's page shows, the latest: `trace <key>` prints them all. */
const SHOWN_EVENTS = 400;

const isKeyKind = (kind: string): kind is KeyKind => Object.hasOwn(KEY_KINDS, kind);

/** A key as a page may show it: an ERP file's name (it may be a patient's) by its label. */
const shownKey = (match: KeyMatch): string =>
  match.kind === 'inboxFile' || match.kind === 'fileLabel'
    ? messageLabel(match.value)
    : match.value;

function searchPage(deps: ConsoleDeps, request: FastifyRequest, reply: FastifyReply) {
  const q = queryField(request, 'q');
  const found = searchKey(deps.store, q, LISTED);
  const [only] = found.matches;
  if (found.how === 'exact' && found.matches.length === 1 && only !== undefined) {
    const to = recordHref(only.subject.resource, only.subject.id, { by: only.kind, key: q });
    return reply.redirect(to, 303);
  }
  const rows = found.matches.map(
    (match) =>
      html`<tr>
        <td>
          <a
            href="${recordHref(match.subject.resource, match.subject.id, { by: match.kind, key: q })}"
            >${match.subject.resource} ${match.subject.id}</a
          >
        </td>
        <td>${KEY_KINDS[match.kind]}</td>
        <td class="what">${shownKey(match)}</td>
      </tr>`,
  );
  const how =
    found.how === 'exact'
      ? `${found.matches.length} records are known by “${q}”.`
      : found.matches.length === 0
        ? [...q].length < MIN_PREFIX_CHARS
          ? `Nothing is known by “${q}”; give at least ${MIN_PREFIX_CHARS} characters to find keys that start with it.`
          : `Nothing is known by “${q}”, and no key starts with it.`
        : `No key is “${q}”; these start with it${found.more ? ` (the first ${LISTED})` : ''}.`;
  const listed = rows.length === 0 ? '' : table(['Record', 'Found by', 'Key'], rows);
  return sendPage(request, reply, 'Search', html`${notice(how)}${listed}`, { search: q });
}

/** Each kind of event as the page names it. */
const KIND_NAMES: Readonly<Record<TraceEventKind, string>> = {
  version: 'pulled',
  handOver: 'to the ERP',
  job: 'job',
  deadLetter: 'dead letter',
  message: 'ERP message',
  ownWrite: 'our write',
  operator: 'operator',
  quarantine: 'quarantined',
};

function events(list: readonly TraceEvent[]): Html {
  const shown = list.slice(-SHOWN_EVENTS);
  const left = list.length - shown.length;
  const rows = shown.map(
    (event) =>
      html`<tr>
        <td class="when">${event.at}</td>
        <td><span class="tag">${KIND_NAMES[event.kind]}</span></td>
        <td class="what">${event.what}</td>
      </tr>`,
  );
  return html`<h2>Story</h2>
    ${left > 0 ? notice(`${left} older events are not shown here: homecare-sync trace prints them all.`) : ''}
    ${
      rows.length === 0
        ? notice('Nothing recorded about it yet.')
        : table(['When', 'What', 'Details'], rows)
    }`;
}

const button = (action: string, label: string, style = '') =>
  html`<form class="inline" method="post" action="${action}">
    <button type="submit" class="${style}">${label}</button>
  </form>`;

function jobs(story: TracedRecord, viewer: Viewer, back: string): Html {
  const open = story.jobs.filter((job) => job.deadLetterOpen);
  if (open.length === 0) return html``;
  const rows = open.map(
    (job) =>
      html`<tr>
        <td class="num">${job.id}</td>
        <td>${job.kind}</td>
        <td>${canAct(viewer) ? jobButtons(job.id, back) : 'dead letter'}</td>
      </tr>`,
  );
  return html`<h2>Dead letters</h2>
    ${table(['Job', 'Kind', 'Action'], rows)}`;
}

function storyPage(
  deps: ConsoleDeps,
  request: FastifyRequest<{ Params: { resource: string; id: string } }>,
  reply: FastifyReply,
  personal: PersonalValues,
) {
  const { resource, id } = request.params;
  const viewer = viewerOf(request);
  const reading = { personal, handOvers: deps.handOvers };
  const look = { by: operatorOf(viewer, request.socket.remoteAddress), via: 'console' };
  const story = recordStory(deps.store, { resource, id }, reading, look);
  if (story === undefined) {
    return sendPage(
      request,
      reply,
      'Not found',
      notice(`Nothing is known of ${resource} ${id}.`, 'bad'),
      {
        status: 404,
      },
    );
  }
  const by = queryField(request, 'by');
  const key = queryField(request, 'key');
  const self = recordHref(resource, id);
  const found =
    isKeyKind(by) && key !== '' ? notice(html`Found by ${KEY_KINDS[by]} “${key}”.`) : '';
  const waits =
    story.waiting.length === 0
      ? html`<p class="ok">Nothing holds it now.</p>`
      : html`<ul class="waits">
          ${story.waiting.map((why) => html`<li>${why}</li>`)}
        </ul>`;
  const mirrored = isResourceName(resource) && getMirror(deps.store, resource, id) !== undefined;
  const actions = canAct(viewer)
    ? html`<p>
        ${personal === 'masked' ? button(`${self}/reveal`, 'Show personal values', 'quiet') : notice('Personal values are shown; this look is kept with your name.')}
        ${mirrored ? button(`${self}/redeliver`, 'Hand it to the ERP again') : ''}
      </p>`
    : html`<p class="muted">Personal values are masked.</p>`;
  const content = html`${found}
    <h2>Now</h2>
    ${waits}${actions}${jobs(story, viewer, self)}${events(story.events)}`;
  return sendPage(request, reply, `${resource} ${id}`, content, {
    search: key,
  });
}

function redeliverAction(
  deps: ConsoleDeps,
  request: FastifyRequest<{ Params: { resource: string; id: string } }>,
  reply: FastifyReply,
) {
  const { resource, id } = request.params;
  const back = html`<p><a href="${recordHref(resource, id)}">Back to ${resource} ${id}</a></p>`;
  if (!isResourceName(resource)) {
    return sendPage(
      request,
      reply,
      'Refused',
      html`${notice(`${resource} is no resource.`, 'bad')}${back}`,
      { status: 404 },
    );
  }
  try {
    const by = operatorOf(viewerOf(request), request.socket.remoteAddress);
    const done = redeliverRecord(deps.store, resource, id, by);
    const text = `${resource} ${id} (${done.version}) goes to the ERP again at the daemon's next delivery round.`;
    return sendPage(request, reply, 'Handed over again', html`${notice(text, 'good')}${back}`);
  } catch (error) {
    if (!(error instanceof PermanentError)) throw error;
    return sendPage(request, reply, 'Refused', html`${notice(error.message, 'bad')}${back}`, {
      status: 409,
    });
  }
}

type RecordRequest = FastifyRequest<{ Params: { resource: string; id: string } }>;

/** The search, a record's story (its shareable address), and what an operator does to it. */
export function recordRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/search', VIEW, (request, reply) => searchPage(deps, request, reply));
  app.get('/record/:resource/:id', VIEW, (request: RecordRequest, reply) =>
    storyPage(deps, request, reply, 'masked'),
  );
  app.post('/record/:resource/:id/reveal', ACT, (request: RecordRequest, reply) =>
    storyPage(deps, request, reply, 'shown'),
  );
  app.post('/record/:resource/:id/redeliver', ACT, (request: RecordRequest, reply) =>
    redeliverAction(deps, request, reply),
  );
}
