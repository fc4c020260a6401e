/**
 * The ERP messages refused so far, which app.ts counts and alerting.ts reports: a file of its own
 * so that the app need not import the alerts, which read the whole app.
 */
import type { NamedEvent } from '../alerts/watch.js';
import { fileLabel } from '../log/index.js';

/** ERP messages refused so far (files set aside, requests answered 400): counted by the app. */
export interface Refusals {
  count: number;
  lastAt?: number;
  /** The latest refused files, each with the count it brought (for the alerts' digest). */
  files: NamedEvent[];
}

/** The most refused files kept for the digest: it lists no more than some of them. */
const MOST_FILES_KEPT = 50;

/**
 * A refused file as alerts name it: `<kind>/<label> (<day>)`. ERPs often name a file after its
 * patient, and an alert goes to a chat or a mailbox `forget` cannot reach: the kind, the label
 * (as the log names the file, and `trace` finds it by) and the day are what an operator needs
 * to find it in `<inbox>/.error/<kind>/`.
 */
function alertName(file: string, at: number): string {
  const slash = file.lastIndexOf('/');
  const kind = slash < 0 ? '' : file.slice(0, slash + 1);
  const day = new Date(at).toISOString().slice(0, 10);
  return `${kind}${fileLabel(file.slice(slash + 1))} (${day})`;
}

/** Notes `messages` refused now; `file` (`<kind>/<name>`) names the refused file, when one was. */
export function noteRefusal(refusals: Refusals, messages: number, at: number, file?: string) {
  refusals.count += messages;
  refusals.lastAt = at;
  if (file === undefined) return;
  refusals.files.push({ count: refusals.count, name: alertName(file, at) });
  refusals.files.splice(0, refusals.files.length - MOST_FILES_KEPT);
}
