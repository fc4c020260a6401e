import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type Html } from './html.js';
import { notice, page, type PageOptions } from './layout.js';
import type { Viewer } from './viewer.js';

/** Who sent each request, as the console's access hook found it. */
const viewers = new WeakMap<FastifyRequest, Viewer>();

export const setViewer = (request: FastifyRequest, viewer: Viewer): void =>
  void viewers.set(request, viewer);

/** The viewer of a request that passed the access hook (routes that are not open). */
export function viewerOf(request: FastifyRequest): Viewer {
  const viewer = viewers.get(request);
  if (viewer === undefined) throw new Error('console: a route that needs a viewer had none');
  return viewer;
}

/** What a route's `config` says about the console's access (http/access.ts RouteAccess). */
export interface ConsoleRouteAccess {
  /** The console decides who may call it, not the endpoint's token. */
  own: true;
  /** Reachable without a login: the login page, the stylesheet. */
  open?: boolean;
  /** Changes something: the operator role only. */
  acts?: boolean;
}

export const VIEW: { config: ConsoleRouteAccess } = { config: { own: true } };
export const OPEN: { config: ConsoleRouteAccess } = { config: { own: true, open: true } };
export const ACT: { config: ConsoleRouteAccess } = { config: { own: true, acts: true } };

export function sendHtml(reply: FastifyReply, status: number, body: Html): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body.text);
}

/** A whole page for the request's viewer. */
export function sendPage(
  request: FastifyRequest,
  reply: FastifyReply,
  title: string,
  content: Html,
  options: PageOptions & { status?: number } = {},
): FastifyReply {
  const viewer = viewers.get(request);
  return sendHtml(reply, options.status ?? 200, page(title, content, viewer, options));
}

/** A refusal as a page: what is wrong, and the way back where there is one (401: log in first). */
export function sendRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  text: string,
  back?: Html,
): FastifyReply {
  const title = status === 401 ? 'Log in first' : 'Refused';
  return sendPage(request, reply, title, html`${notice(text, 'bad')}${back}`, { status });
}

/** A form's text field, trimmed; '' when absent. */
export function field(body: unknown, name: string): string {
  if (body === null || typeof body !== 'object') return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}

/** A query's text parameter, trimmed; '' when absent. */
export const queryField = (request: FastifyRequest, name: string): string =>
  field(request.query, name);
