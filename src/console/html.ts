/**
 * HTML made only through `html`: every value put into a template is escaped, unless it is HTML
 * made here already, so no text from the platform, the ERP or a request can become markup.
 */

export class Html {
  constructor(readonly text: string) {}
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** What a template takes: text and numbers (escaped), HTML, lists of them; nothing for absent. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  if (typeof part === 'string') return escapeHtml(part);
  if (typeof part === 'number') return String(part);
  return '';
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let text = strings[0] ?? '';
  parts.forEach((part, index) => {
    text += render(part) + (strings[index + 1] ?? '');
  });
  return new Html(text);
}

/** A console path with its query, each value encoded. */
export function href(
  path: string,
  query: Readonly<Record<string, string | undefined>> = {},
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(name, value);
  }
  const search = params.toString();
  return search === '' ? path : `${path}?${search}`;
}

/** The page of one record: its resource and id as path segments, each encoded. */
export const recordHref = (
  resource: string,
  id: string,
  query: Readonly<Record<string, string | undefined>> = {},
): string =>
  href(`/console/record/${encodeURIComponent(resource)}/${encodeURIComponent(id)}`, query);
