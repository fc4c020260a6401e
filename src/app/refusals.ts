/**
 * The ERP messages refused so far, which app.ts counts and alerting.ts reports: a file of its own
 * so that the app need not import the alerts, which read the whole app.
 */
import type { NamedEvent } from '../alerts/watch.js';

/** ERP messages refused so far (files set aside, requests answered 400): counted by the app. */
export interface Refusals {
  count: number;
  lastAt?: number;
  /** The latest refused files, each with the count it brought (for the alerts' digest). */
  files: NamedEvent[];
}

/** The most refused files kept for the digest: it lists no more than some of them. */
const MOST_FILES_KEPT = 50;

/** Notes `messages` refused now; `file` names the refused file, when one was. */
export function noteRefusal(refusals: Refusals, messages: number, at: number, file?: string) {
  refusals.count += messages;
  refusals.lastAt = at;
  if (file === undefined) return;
  refusals.files.push({ count: refusals.count, name: file });
  refusals.files.splice(0, refusals.files.length - MOST_FILES_KEPT);
}
