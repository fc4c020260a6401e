import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, type ConsoleAuth } from '../auth.js';
import { field, OPEN, queryField, sendPage } from '../context.js';
import { html } from '../html.js';
import { notice } from '../layout.js';
import { ICON, STYLESHEET } from '../style.js';

/** Where to go after a login: a console page only, never another site. */
function nextOf(next: string): string {
  return /^\/console(?:[/?]|$)/.test(next) && !next.startsWith('//') ? next : '/console';
}

function loginForm(next: string, problem?: string) {
  return html`${problem === undefined ? '' : notice(problem, 'bad')}
    <form method="post" action="/console/login">
      <input type="hidden" name="next" value="${next}" />
      <label for="user">User</label>
      <input id="user" name="user" autocomplete="username" />
      <label for="password">Password, or a console token (user left empty)</label>
      <input
        id="password"
        name="password"
        type="password"
        autocomplete="current-password"
        required
      />
      <p><button type="submit">Log in</button></p>
    </form>`;
}

/** The session cookie: sent back only to the console, never to a script or another site. */
function sessionCookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const https = request.headers['x-forwarded-proto'] === 'https' || request.protocol === 'https';
  const secure = https ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/console; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

async function login(auth: ConsoleAuth, request: FastifyRequest, reply: FastifyReply) {
  const next = nextOf(field(request.body, 'next'));
  const address = request.socket.remoteAddress ?? 'unknown';
  const outcome = await auth.login(
    field(request.body, 'user'),
    field(request.body, 'password'),
    address,
  );
  if (outcome.ok) {
    void reply.header('set-cookie', sessionCookie(request, outcome.cookie, outcome.maxAgeSeconds));
    return reply.redirect(next, 303);
  }
  if (outcome.retryAfterSeconds !== undefined) {
    void reply.header('retry-after', String(outcome.retryAfterSeconds));
    const wait = `Too many failed logins: try again in ${outcome.retryAfterSeconds} seconds.`;
    return sendPage(request, reply, 'Log in', loginForm(next, wait), { status: 429 });
  }
  return sendPage(
    request,
    reply,
    'Log in',
    loginForm(next, 'That user and password do not match.'),
    {
      status: 401,
    },
  );
}

/** Logging in and out, and the stylesheet and icon the login page needs before anyone is logged in. */
export function sessionRoutes(app: FastifyInstance, auth: ConsoleAuth): void {
  app.get('/login', OPEN, (request, reply) =>
    sendPage(request, reply, 'Log in', loginForm(nextOf(queryField(request, 'next')))),
  );
  app.post('/login', OPEN, (request, reply) => login(auth, request, reply));
  app.post('/logout', OPEN, (request, reply) => {
    auth.logout(request.headers.cookie);
    void reply.header('set-cookie', sessionCookie(request, '', 0));
    return reply.redirect('/console/login', 303);
  });
  app.get('/style.css', OPEN, (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(STYLESHEET),
  );
  app.get('/icon.svg', OPEN, (_request, reply) => reply.type('image/svg+xml').send(ICON));
}
