/** One API request as the control API reports it. */
export interface RequestLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The client the key names; null when the key was missing or unknown. */
  client: string | null;
  /** null while the answer is pending; 0 when a fault reset the connection. */
  status: number | null;
  /**
   * With a `resetAfterProcessing` fault: the status of the answer the simulator had ready when it
   * cut the connection (say 201: the create applied), so a test can tell what took effect.
   */
  withheldStatus?: number;
  time: string;
}

const LIMIT = 10_000;

/** The most recent API requests, for tests that check what the daemon sent. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];

  add(entry: RequestLogEntry): RequestLogEntry {
    this.entries.push(entry);
    if (this.entries.length > LIMIT) this.entries.splice(0, this.entries.length - LIMIT);
    return entry;
  }

  list(): readonly RequestLogEntry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
