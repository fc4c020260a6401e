import { href, html, type Html } from './html.js';

/**
 * The buttons of one dead letter: retry and drop, each a form of its own that comes back to
 * `back`. Each reads "Retry" or "Drop" and is named with its job for assistive technology.
 */
export function jobButtons(id: number, back: string): Html {
  const form = (action: 'retry' | 'drop', label: string, style: string) =>
    html`<form
      class="inline"
      method="post"
      action="${href(`/console/jobs/${id}/${action}`, { back })}"
    >
      <button type="submit" class="${style}" aria-label="${label} job ${id}">${label}</button>
    </form>`;
  return html`<span class="actions"
    >${form('retry', 'Retry', '')} ${form('drop', 'Drop', 'danger')}</span
  >`;
}
