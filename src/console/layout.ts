import { html, type Html, type Part } from './html.js';
import type { Viewer } from './viewer.js';

/** How a page is made: the key in the header's search box, or no box (the page has its own). */
export interface PageOptions {
  search?: string | undefined;
  ownSearch?: boolean;
}

function headerSearch(search: string): Html {
  return html`<form class="search" method="get" action="/console/search" role="search">
    <label for="header-q" class="muted">Key</label>
    <input id="header-q" name="q" type="search" value="${search}" />
    <button type="submit">Search</button>
  </form>`;
}

/** A whole page: the header with the search and who is logged in, the page's own content. */
export function page(
  title: string,
  content: Part,
  viewer?: Viewer,
  options: PageOptions = {},
): Html {
  const nav =
    viewer === undefined
      ? ''
      : html`<nav aria-label="Console">
            <ul>
              <li><a href="/console">Health</a></li>
              <li><a href="/console/dead">Dead letters</a></li>
              <li><a href="/console/pauses">Pauses</a></li>
            </ul>
          </nav>
          ${options.ownSearch === true ? '' : headerSearch(options.search ?? '')}
          <div class="who">
            <span>${viewer.name} (${viewer.role === 'operator' ? 'operator' : 'read-only'})</span>
            <form class="inline" method="post" action="/console/logout">
              <button type="submit" class="quiet">Log out</button>
            </form>
          </div>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · homecare-sync</title>
        <link rel="stylesheet" href="/console/style.css" />
        <link rel="icon" href="/console/icon.svg" type="image/svg+xml" />
      </head>
      <body>
        <header>
          <a class="brand" href="/console">homecare-sync</a>
          ${nav}
        </header>
        <main>
          <h1>${title}</h1>
          ${content}
        </main>
      </body>
    </html> `;
}

/** A short text in a box: what happened, what was refused. */
export const notice = (text: Part, tone: 'good' | 'bad' | 'plain' = 'plain'): Html =>
  html`<p class="notice ${tone === 'plain' ? '' : tone}" role="status">${text}</p>`;

/** A table: a header cell per column, the rows as given. */
export const table = (columns: readonly Part[], rows: readonly Html[]): Html =>
  html`<table>
    <thead>
      <tr>
        ${columns.map((column) => html`<th scope="col">${column}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
