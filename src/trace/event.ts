/** One line of a record's timeline (`trace <key>`, the console's story: timeline.ts). */
export type TraceEventKind =
  | 'version'
  | 'handOver'
  | 'job'
  | 'deadLetter'
  | 'message'
  | 'ownWrite'
  | 'operator'
  | 'quarantine';

export interface TraceEvent {
  at: string;
  kind: TraceEventKind;
  what: string;
  job?: number;
  /** A pulled version's changed fields, by name (never values); empty when only its stamps. */
  changed?: readonly string[];
  /** A pulled version of a record first seen. */
  new?: true;
}
