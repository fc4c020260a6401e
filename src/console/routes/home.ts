import type { FastifyInstance } from 'fastify';
import { statusOf, type Status } from '../../operations/index.js';
import { HAND_OVERS, PLATFORM_WRITES } from '../../queue/index.js';
import { bytesText } from '../../shared/bytes.js';
import { lastSuccessfulPulls, oldestOpenJob } from '../../store/index.js';
import { sendPage, VIEW } from '../context.js';
import type { ConsoleDeps, DaemonView } from '../deps.js';
import { html, type Html } from '../html.js';
import { table } from '../layout.js';

/** "3 min", "2 h 5 min", "4 d": how long ago, in the largest units that say it. */
export function ago(from: string | undefined, now: Date): string {
  if (from === undefined) return '–';
  const minutes = Math.max(0, Math.floor((now.getTime() - Date.parse(from)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

const state = (ok: boolean, text: string) =>
  html`<span class="${ok ? 'ok' : 'bad'}">${text}</span>`;

function checks(view: DaemonView): Html {
  const rows = Object.entries(view.readiness.checks).map(
    ([name, check]) =>
      html`<tr>
        <th scope="row">${name}</th>
        <td>${state(check.ok, check.ok ? 'ok' : 'failing')}</td>
        <td class="what">${check.problem ?? ''}</td>
      </tr>`,
  );
  return html`<h2>Ready ${state(view.readiness.ready, view.readiness.ready ? 'yes' : 'no')}</h2>
    ${table(['Check', 'State', 'Problem'], rows)}`;
}

function resources(deps: ConsoleDeps, status: Status, now: Date): Html {
  const names = [...new Set(status.checkpoints.map((c) => c.resource))];
  const pulled = lastSuccessfulPulls(deps.store, names);
  const paused = (resource: string) =>
    status.paused.find((p) => p.direction === 'pull' && [resource, '*'].includes(p.resource));
  const rows = status.checkpoints.map((c) => {
    const run = c.lastRun;
    const failed = run?.ok === false;
    const pause = paused(c.resource);
    return html`<tr>
      <th scope="row">${c.resource}</th>
      <td>${c.filter || '–'}</td>
      <td class="when">${c.watermark ?? '–'}</td>
      <td class="when">${run?.finishedAt ?? (run === undefined ? '–' : 'running')}</td>
      <td class="num">${ago(pulled[c.resource], now)}</td>
      <td class="what">${failed ? state(false, run.error ?? 'failed') : ''}</td>
      <td>${pause === undefined ? 'no' : html`<span class="warn">since ${pause.since}</span>`}</td>
    </tr>`;
  });
  return html`<h2>Pulls</h2>
    ${table(['Resource', 'List', 'Checkpoint', 'Last pull', 'Lag', 'Last error', 'Paused'], rows)}`;
}

function queue(deps: ConsoleDeps, status: Status, now: Date): Html {
  const handOvers = oldestOpenJob(deps.store, HAND_OVERS);
  const writes = oldestOpenJob(deps.store, PLATFORM_WRITES);
  const q = status.queue;
  const pushPauses = status.paused.filter((p) => p.direction === 'push');
  return html`<h2>Queue</h2>
    <dl class="facts">
      <dt>Jobs</dt>
      <dd>${q.pending} pending, ${q.running} running</dd>
      <dt>Dead letters</dt>
      <dd>
        ${q.openDeadLetters > 0 ? html`<a href="/console/dead">${q.openDeadLetters} open</a>` : 'none open'}
      </dd>
      <dt>Oldest hand-over</dt>
      <dd>
        ${handOvers.count}
        open${handOvers.since === undefined ? '' : `, the oldest ${ago(handOvers.since, now)} old`}
      </dd>
      <dt>Oldest platform write</dt>
      <dd>
        ${writes.count}
        open${writes.since === undefined ? '' : `, the oldest ${ago(writes.since, now)} old`}
      </dd>
      <dt>Writes paused</dt>
      <dd>
        ${pushPauses.length === 0 ? 'none' : pushPauses.map((p) => `${p.resource === '*' ? 'every kind' : p.resource} since ${p.since}`).join('; ')}
      </dd>
      <dt>Quarantined records</dt>
      <dd>${status.quarantined}</dd>
    </dl>`;
}

function storage(status: Status): Html {
  const s = status.storage;
  return html`<h2>Storage</h2>
    <dl class="facts">
      <dt>Database</dt>
      <dd>
        ${bytesText(s.databaseBytes)} (${bytesText(s.freePages * s.pageSize)} free inside), WAL
        ${bytesText(s.walBytes)}
      </dd>
      ${
        s.archive === undefined
          ? ''
          : html`<dt>Inbox archive</dt>
              <dd>${bytesText(s.archiveBytes)}</dd>`
      }
    </dl>`;
}

function outages(view: DaemonView): Html {
  const outage = view.lastOutage;
  const alert = view.lastAlert;
  return html`<h2>Outages and alerts</h2>
    <dl class="facts">
      <dt>Platform</dt>
      <dd>
        ${
          outage === undefined
            ? 'no outage since the daemon started'
            : outage.until === undefined
              ? state(false, `unreachable since ${outage.since}: ${outage.problem}`)
              : `unreachable from ${outage.since} to ${outage.until}: ${outage.problem}`
        }
      </dd>
      <dt>Last alert</dt>
      <dd>
        ${
          alert === undefined
            ? 'none since the daemon started'
            : `${alert.alert} ${alert.state} (since ${alert.since}): ${alert.summary}`
        }
      </dd>
    </dl>`;
}

/** The health page: the one box to search, and where the daemon stands at a glance. */
export function homeRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/', VIEW, async (request, reply) => {
    const status = statusOf(deps.store, await deps.storage());
    const view = deps.daemon();
    const now = deps.clock.now();
    const content = html`<form class="search" method="get" action="/console/search" role="search">
        <label for="q" class="muted">Any key</label>
        <input
          id="q"
          name="q"
          type="search"
          autofocus
          placeholder="_id, salesId, customerId, customerNumber, erpOrderNumber, serial number, file name or job id"
        />
        <button type="submit">Find its story</button>
      </form>
      ${checks(view)}${resources(deps, status, now)}${queue(deps, status, now)}${storage(status)}${outages(view)}`;
    return sendPage(request, reply, 'Health', content, { ownSearch: true });
  });
}
