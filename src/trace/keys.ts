import type { RecordSubject } from '../store/index.js';

/** The kinds of key a search knows a record by, each as the page names it. */
export const KEY_KINDS = {
  _id: 'platform _id',
  salesId: 'salesId',
  customerId: 'customerId',
  customerNumber: 'customerNumber',
  serialNumber: 'serialNumber',
  erpOrderNumber: 'erpOrderNumber',
  jobId: 'job id',
  inboxFile: 'inbox file',
  requestKey: 'ERP request key',
  fileLabel: 'file label',
  outboxFile: 'outbox file',
} as const;

export type KeyKind = keyof typeof KEY_KINDS;

/** A record a key names, by which kind of key, and the key's whole value (a prefix's match). */
export interface KeyMatch {
  subject: RecordSubject;
  kind: KeyKind;
  value: string;
}

/** The matches of a key, each record once (the first kind that found it). */
export function distinctMatches(matches: readonly KeyMatch[]): KeyMatch[] {
  const seen = new Map<string, KeyMatch>();
  for (const match of matches) {
    const id = `${match.subject.resource}\u0000${match.subject.id}`;
    if (!seen.has(id)) seen.set(id, match);
  }
  return [...seen.values()];
}

export const matched =
  (kind: KeyKind, value: string) =>
  (subject: RecordSubject): KeyMatch => ({ subject, kind, value });
